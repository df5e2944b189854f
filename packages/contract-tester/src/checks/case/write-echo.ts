import { jsonEqual, jsonText, parseExactJson } from '../../generate/json-text.js';
import type { TestRequest } from '../../generate/requests.js';
import { mergeAllOf } from '../../generate/valid-values.js';
import { documentedResponse } from '../../spec/model.js';
import type { CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** A body's JSON value as sent, if it was JSON (or a form made from a value). */
export function sentValue(request: TestRequest, value?: unknown): unknown {
  if (value !== undefined) return value;
  if (!request.body) return undefined;
  try {
    return parseExactJson(request.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A create (POST), a replacement (PUT) or an update (PATCH) answered 2xx returns what it was given:
 * each field sent that the response schema also has comes back with the same value; a PATCH's null
 * (JSON Merge Patch, RFC 7396) comes back absent.
 */
export const writeEcho = defineCheck({
  name: 'write_echo',
  on: 'profile',
  description: 'a create, PUT or PATCH answers with the fields it was sent',
  readsValidAnswers: true,
  answer: function writeEcho({ operation, request, response, value }: CaseAnswer): string[] {
    if (!['post', 'put', 'patch'].includes(operation.method) || response.status < 200 || response.status > 299) return [];
    const schema = documentedResponse(operation, response.status)?.schema;
    const properties = schema && mergeAllOf(schema)['properties'];
    const body = response.body;
    if (!properties || typeof properties !== 'object' || body === null || typeof body !== 'object' || Array.isArray(body)) return [];
    const sent = sentValue(request, value);
    if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return [];
    const answered = body as Record<string, unknown>;
    const patch = operation.method === 'patch';
    return Object.entries(sent)
      .filter(([name]) => name in properties)
      .filter(([name, value]) =>
        patch && value === null ? answered[name] !== undefined && answered[name] !== null : !jsonEqual(value, answered[name]),
      )
      .map(([name, value]) =>
        patch && value === null
          ? `${name} was removed (null) but came back as ${jsonText(answered[name])}`
          : `${name} was sent as ${jsonText(value)} but came back as ${jsonText(answered[name])}`,
      );
  },
});
