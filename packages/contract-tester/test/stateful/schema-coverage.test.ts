import { describe, expect, it } from 'vitest';
import type { CaseKind } from '../../src/checks/expectations.js';
import type { HttpResponse } from '../../src/http/http-client.js';
import { readApiModel } from '../../src/spec/model.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';
import { countOf, SchemaCoverage } from '../../src/stateful/schema-coverage.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A small spec: a listing with a path-free query and header, a create whose body has a readOnly id. */
const SPEC: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  servers: [{ url: 'http://localhost/api' }],
  paths: {
    '/boards/{boardId}/notes': {
      parameters: [{ name: 'boardId', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: 'listNotes',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok', ...json({ type: 'array' }) }, '4XX': { description: 'no', ...json({}) } },
      },
      post: {
        operationId: 'createNote',
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string' } },
            allOf: [{ properties: { colour: { type: 'string' } } }],
          }),
        },
        responses: {
          '201': { description: 'made', ...json({ type: 'object' }) },
          '204': { description: 'nothing' },
          default: { description: 'error' },
        },
      },
    },
  },
  components: { schemas: {} },
};

const api = readApiModel(SPEC);
api.basePath = '/api';
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;

function response(status: number, contentType?: string): HttpResponse {
  return {
    status,
    headers: contentType ? { 'content-type': contentType } : {},
    bytes: Buffer.alloc(0),
    text: '',
    body: undefined,
    elapsedMs: 1,
  };
}

function sent(
  kind: CaseKind,
  id: string,
  target: string,
  answer: HttpResponse,
  extra: { headers?: Array<{ name: string; value: string }>; body?: string; bodyValue?: unknown } = {},
) {
  const of = operation(id);
  return {
    kind,
    operation: of,
    request: {
      method: of.method.toUpperCase(),
      target,
      headers: extra.headers ?? [],
      credentials: { kind: 'valid' as const, credentials: [] },
      ...(extra.body !== undefined ? { body: Buffer.from(extra.body) } : {}),
    },
    ...(extra.bodyValue !== undefined ? { bodyValue: extra.bodyValue } : {}),
    response: answer,
  };
}

describe('schema coverage', () => {
  it('is nothing covered before any request, every item of every selected operation counted', () => {
    const report = new SchemaCoverage(api).report(api.operations);
    expect(report.operations.map(({ operation: id, exercised }) => [id, exercised])).toEqual([
      ['listNotes', false],
      ['createNote', false],
    ]);
    expect(report.operations[0]!.parameters.missing).toEqual(['path.boardId', 'query.limit', 'header.X-Trace', 'cookie.session']);
    // readOnly properties are not the client's to send; allOf parts' properties are the body's.
    expect(report.operations[1]!.bodyProperties.missing).toEqual(['text', 'colour']);
    expect(report.operations[1]!.responses.missing).toEqual(['201 application/json', '204', 'default']);
    expect(report.totals).toEqual({
      operations: countOf(0, 2),
      parameters: countOf(0, 5),
      bodyProperties: countOf(0, 2),
      responses: countOf(0, 5),
      overall: countOf(0, 14),
    });
  });

  it('counts a parameter sent with a value, a body property present, a documented response by status and media type', () => {
    const coverage = new SchemaCoverage(api);
    coverage.observe(
      sent('negative', 'listNotes', '/api/boards/7/notes?limit=x', response(400, 'application/problem+json; charset=utf-8'), {
        headers: [
          { name: 'x-trace', value: 'a' },
          { name: 'Cookie', value: 'other=1; session=2' },
        ],
      }),
    );
    coverage.observe(
      sent('positive', 'createNote', '/api/boards/7/notes', response(201, 'application/json'), {
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        body: '{"text":"hi","unknown":1}',
      }),
    );
    const [list, create] = coverage.report(api.operations).operations;
    expect(list!.parameters).toEqual({ covered: ['path.boardId', 'query.limit', 'header.X-Trace', 'cookie.session'], missing: [] });
    // A 400 of a type 4XX does not document is no documented response received.
    expect(list!.responses.covered).toEqual([]);
    expect(list!.exercised).toBe(false);
    expect(create!.bodyProperties).toEqual({ covered: ['text'], missing: ['colour'] });
    expect(create!.responses.covered).toEqual(['201 application/json']);
    expect(create!.exercised).toBe(true);
  });

  it('takes the value a body was made from, ranges and default as documented, and only the operation’s own requests', () => {
    const coverage = new SchemaCoverage(api);
    coverage.observe(sent('positive', 'createNote', '/api/boards/7/notes', response(204), { bodyValue: { colour: 'red' } }));
    coverage.observe(sent('negative', 'createNote', '/api/boards/7/notes', response(422, 'text/plain')));
    coverage.observe(sent('negative', 'listNotes', '/api/boards/7/notes', response(404, 'application/json')));
    // A wrong method, OPTIONS, HEAD or an unknown path is not the operation's request.
    coverage.observe(sent('method', 'listNotes', '/api/boards/7/notes?limit=1', response(200, 'application/json')));
    coverage.observe(sent('head', 'listNotes', '/api/boards/7/notes?limit=1', response(200, 'application/json')));
    const report = coverage.report(api.operations);
    const [list, create] = report.operations;
    expect(create!.bodyProperties.covered).toEqual(['colour']);
    expect(create!.responses.covered).toEqual(['204', 'default']);
    expect(list!.responses.covered).toEqual(['4XX application/json']);
    expect(list!.parameters.covered).toEqual(['path.boardId']);
    expect(report.totals.responses).toEqual(countOf(3, 5));
    // An operation, boardId of each, a body property, three responses.
    expect(report.totals.overall).toEqual(countOf(1 + 2 + 1 + 3, 14));
  });

  it('counts as exercised a valid request answered 2xx, and leaves operations the run could not test uncovered', () => {
    const coverage = new SchemaCoverage(api);
    coverage.observe(sent('link', 'listNotes', '/api/boards/1/notes', response(200, 'application/json')));
    const report = coverage.report(api.operations);
    expect(report.operations.map(({ exercised }) => exercised)).toEqual([true, false]);
    expect(report.totals.operations).toEqual(countOf(1, 2));
    expect(countOf(0, 0).percent).toBe(100);
  });
});
