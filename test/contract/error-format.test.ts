import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { DEFAULT_ERROR_FORMAT, readErrorFormat } from '../../src/contract/error-format.js';
import { listOperations, type OpenApiDocument, type SchemaObject } from '../../src/contract/spec.js';

const facts = { code: 'route_not_found', message: 'No operation at GET /x.', status: 404 };

/** A one-operation document whose 404 declares `content`. */
function documentWith(content: Record<string, { schema?: SchemaObject }> | undefined): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Any', version: '1.0.0' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          responses: { '200': { description: 'Things.' }, '404': { description: 'None.', ...(content ? { content } : {}) } },
        },
      },
    },
    components: { schemas: {} },
  };
}

const formatOf = (document: OpenApiDocument) => readErrorFormat(document, listOperations(document));

describe('the error format, read once from the error responses of a document (readErrorFormat)', () => {
  it("keeps the pet store's Error object: code, message and status as application/json", () => {
    const { kind, contentType, render } = loadContract().errorFormat;
    expect([kind, contentType]).toEqual(['code-message', 'application/json; charset=utf-8']);
    expect(JSON.parse(render(facts))).toEqual(facts);
  });

  it('writes RFC 9457 problem documents where the errors are application/problem+json, the code as an extension', () => {
    const format = formatOf(documentWith({ 'application/problem+json': {} }));
    expect([format.kind, format.contentType]).toEqual(['problem', 'application/problem+json; charset=utf-8']);
    expect(JSON.parse(format.render(facts))).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No operation at GET /x.',
      code: 'route_not_found',
    });
  });

  it('fills an RFC 7807-shaped schema under application/json, and adds no member a closed schema has no room for', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'title', 'status', 'detail'],
      properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } },
    };
    const format = formatOf(documentWith({ 'application/json': { schema } }));
    expect([format.kind, format.contentType]).toEqual(['problem', 'application/json; charset=utf-8']);
    expect(JSON.parse(format.render(facts))).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: facts.message });
  });

  it('writes code and message alone where the schema has no status', () => {
    const schema = { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } };
    expect(JSON.parse(formatOf(documentWith({ 'application/json': { schema } })).render(facts))).toEqual({
      code: facts.code,
      message: facts.message,
    });
  });

  it("writes the message under the schema's own name for it where that is all the schema requires (PowerDNS's error)", () => {
    const error = { type: 'object', required: ['error'], properties: { error: { type: 'string' }, errors: { type: 'array' } } };
    const format = formatOf(documentWith({ 'application/json': { schema: error } }));
    expect(format.kind).toBe('message');
    expect(JSON.parse(format.render(facts))).toEqual({ error: facts.message, code: facts.code });
    const closed = { ...error, additionalProperties: false };
    expect(JSON.parse(formatOf(documentWith({ 'application/json': { schema: closed } })).render(facts))).toEqual({ error: facts.message });
    // Another required member, or a message that is no string, is nothing the stack can fill.
    for (const schema of [{ ...error, required: ['error', 'id'] }, { properties: { error: { type: 'object' } } }])
      expect(formatOf(documentWith({ 'application/json': { schema } })).kind).toBe('problem');
  });

  it('writes problem documents, its documented default, where the errors declare no JSON body', () => {
    expect(formatOf(documentWith(undefined))).toBe(DEFAULT_ERROR_FORMAT);
    expect(formatOf(documentWith({ 'text/plain': { schema: { type: 'string' } } }))).toBe(DEFAULT_ERROR_FORMAT);
    expect(DEFAULT_ERROR_FORMAT.contentType).toBe('application/problem+json; charset=utf-8');
  });
});
