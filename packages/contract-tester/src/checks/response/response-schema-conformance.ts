import { defineCheck } from '../define.js';
import { escapePointerToken, isJsonMediaType, resolveRefAt, type SchemaObject } from '../../spec/openapi.js';
import { documentedContent } from '../media-types.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** A JSON body, or a text body described as a string, is valid against its status's schema. */
export const responseSchemaConformance = defineCheck({
  name: 'response_schema_conformance',
  on: 'default',
  description: "a JSON or text body valid against its status's schema",
  judgesForm: true,
  readsValidAnswers: true,
  scope: 'documented',
  check: function responseSchemaConformance({ documented, response, head, where, document, schemaViolation }: ResponseContext): Problem[] {
    if (head) return [];
    const content = documentedContent(documented!, response);
    if (!content || content.schema === undefined) return [];
    const pointer = `${documented!.pointer}/content/${escapePointerToken(content.mediaType)}/schema`;
    let body: unknown;
    if (isJsonMediaType(content.actual)) {
      if (response.body === undefined) return [response.text ? 'the body is not JSON' : 'the body is empty'];
      body = response.body;
    } else if (content.actual.startsWith('text/') && (resolveRefAt(document, content.schema).value as SchemaObject)['type'] === 'string') {
      body = response.text;
    } else return [];
    const violation = schemaViolation(pointer, body, `${where} body`);
    return violation ? [violation] : [];
  },
});
