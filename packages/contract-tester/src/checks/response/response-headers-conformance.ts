import { parseExactJson } from '../../generate/json-text.js';
import { defineCheck } from '../define.js';
import { escapePointerToken, resolveRefAt, type SchemaObject } from '../../spec/openapi.js';
import type { Problem, ResponseContext } from '../response-check.js';

interface HeaderObject {
  required?: boolean;
  schema?: SchemaObject;
}

/**
 * A header's text as the value its schema describes (Schemathesis does the same): a number or a
 * boolean read as one, a list split at commas; anything else stays text.
 */
export function coerceHeader(text: string, schema: SchemaObject | undefined): unknown {
  const type = schema?.['type'];
  const types = Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
  const number = text.trim();
  // A JSON number's text is read exactly (an int64 past 2^53 too); a looser one (`01`) as Number reads it.
  if ((types.includes('integer') || types.includes('number')) && /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(number))
    return parseExactJson(number);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(number)) return Number(text);
  if (types.includes('boolean') && /^(true|false)$/.test(text.trim())) return text.trim() === 'true';
  if (types.includes('array')) return text.split(',').map((item) => item.trim());
  return text;
}

/** The documented headers: present when required, valid against their schemas. */
export const responseHeadersConformance = defineCheck({
  name: 'response_headers_conformance',
  on: 'default',
  description: 'the documented headers present where required and valid',
  judgesForm: true,
  readsValidAnswers: true,
  scope: 'documented',
  check: function responseHeadersConformance({ documented, response, where, document, schemaViolation }: ResponseContext): Problem[] {
    const problems: Problem[] = [];
    for (const [name, raw] of Object.entries(documented!.value.headers ?? {})) {
      // Content-Type is described by content, not headers (OpenAPI: such a header is ignored).
      if (name.toLowerCase() === 'content-type') continue;
      const { value: header, pointer } = resolveRefAt(
        document,
        raw as HeaderObject,
        `${documented!.pointer}/headers/${escapePointerToken(name)}`,
      );
      const actual = response.headers[name.toLowerCase()];
      if (actual === undefined) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (!header.schema) continue;
      const text = Array.isArray(actual) ? actual.join(', ') : actual;
      const violation = schemaViolation(`${pointer}/schema`, coerceHeader(text, header.schema), `${where} header ${name}`);
      if (violation) problems.push(violation);
    }
    return problems;
  },
});
