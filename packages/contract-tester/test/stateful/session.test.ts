import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { TestRequest } from '../../src/generate/requests.js';
import { problemKey, Session } from '../../src/stateful/session.js';
import { createTestApi } from '../support/pet-store.js';
import { operationOf, testerSession, withKey } from '../support/tester-session.js';

const json = (body: unknown) => Buffer.from(JSON.stringify(body));

describe('a tester session', () => {
  const createRequest = (session: Session, body: unknown): TestRequest => ({
    method: 'POST',
    target: '/v1/pets',
    headers: [{ name: 'Content-Type', value: 'application/json' }],
    credentials: withKey(session, 'createPet'),
    body: json(body),
  });

  it('sends a case and returns the exchange, with no problem when the answer keeps the contract and the expectation', async () => {
    const session = testerSession(await createTestApi());
    const { exchange, problems } = await session.send({
      kind: 'positive',
      operation: operationOf(session, 'createPet'),
      request: createRequest(session, { name: 'Rex', categoryId: 3 }),
    });
    expect(problems).toEqual([]);
    expect(exchange!.response).toMatchObject({ status: 201, body: { id: 1, name: 'Rex', categoryId: 3 } });
    expect(session.ledger.resources.map(({ path, createdBy }) => `${createdBy} ${path}`)).toEqual(['createPet /v1/pets/1']);
    expect(session.successes.get('createPet')).toBe(1);
  });

  it('returns each problem with its check, the operation, the status, why the case was made, and the steps', async () => {
    const session = testerSession(await createTestApi());
    const earlier = [{ request: createRequest(session, {}) }];
    const { problems } = await session.send(
      { kind: 'positive', operation: operationOf(session, 'createPet'), request: createRequest(session, { name: 'Rex' }), why: 'a test' },
      earlier,
    );
    // A write refused with the 400 it documents may be the state's refusal; the pet store's house rules say it is not.
    expect(problems.map(problemKey)).toEqual(['valid_writes_accepted · createPet · 400']);
    expect(problems[0]!.why).toBe('a test');
    expect(problems[0]!.message).toMatch(/^POST \/v1\/pets → a valid request must be accepted, but got 400 .*validation_failed/);
    expect(problems[0]!.steps.map(({ request, response }) => [request.body?.toString(), response?.status])).toEqual([
      ['{}', undefined],
      ['{"name":"Rex"}', 400],
    ]);
    expect(session.ledger.resources).toEqual([]);
  });

  it('holds every answer to the contract and to the checks that are on, whatever the case expects', async () => {
    const api = await createTestApi({
      handlers: {
        createPet: async ({ body }) => ({
          status: 201,
          body: { id: 1, ...body, name: `${body.name}!` },
          headers: { Location: '/v1/pets/1', ETag: '"1-1"' },
        }),
      },
    });
    const session = testerSession(api);
    const { problems } = await session.send({
      kind: 'positive',
      operation: operationOf(session, 'createPet'),
      request: createRequest(session, { name: 'Rex', categoryId: 3 }),
    });
    expect(problems.map(({ check, message }) => `${check}: ${message}`)).toEqual([
      'write_echo: name was sent as "Rex" but came back as "Rex!"',
    ]);
    const quiet = new Session(session.api, session.client, session.checker, {
      checks: new Set(['not_a_server_error']),
      profile: session.settings.profile,
    });
    expect(
      (
        await quiet.send({
          kind: 'positive',
          operation: operationOf(session, 'createPet'),
          request: createRequest(session, { name: 'Rex', categoryId: 3 }),
        })
      ).problems,
    ).toEqual([]);
  });

  it('fails an answer slower than max_response_time, when asked', async () => {
    const session = testerSession(await createTestApi());
    const timed = new Session(session.api, session.client, session.checker, {
      checks: new Set(['max_response_time']),
      profile: session.settings.profile,
      maxResponseTimeMs: 0.001,
    });
    const { problems } = await timed.send({
      kind: 'positive',
      operation: operationOf(session, 'listPets'),
      request: { method: 'GET', target: '/v1/pets', headers: [], credentials: withKey(session, 'listPets') },
    });
    expect(problems.map(({ check }) => check)).toEqual(['max_response_time']);
  });

  it('turns a deployment that does not answer into a server error of the case', async () => {
    const server = createServer((request) => request.socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const session = testerSession({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: 'psk_x' });
    const { exchange, problems } = await session.send({
      kind: 'positive',
      operation: operationOf(session, 'createPet'),
      request: createRequest(session, {}),
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(exchange).toBeUndefined();
    expect(problems.map(problemKey)).toEqual(['not_a_server_error · createPet · no answer']);
    expect(problems[0]!.message).toMatch(/^POST \/v1\/pets → no response: /);
    expect(problems[0]!.steps).toHaveLength(1);
  });

  it('holds no 429 it could not wait out against the API: the rate limit says nothing of the request', async () => {
    let status = 429;
    const server = createServer((_, response) => response.writeHead(status, { 'Retry-After': '3600' }).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const session = testerSession({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: 'psk_x' });
    const unauthenticated = (): Parameters<Session['send']>[0] => ({
      kind: 'auth-first',
      operation: operationOf(session, 'listPets'),
      request: { method: 'GET', target: '/v1/pets', headers: [], credentials: { kind: 'none' } },
    });
    const limited = await session.send(unauthenticated());
    status = 400;
    const refused = await session.send(unauthenticated());
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const judged = (problems: Array<{ check: string }>) =>
      problems.map(({ check }) => check).filter((check) => ['auth_first', 'status_code_conformance'].includes(check));
    expect(judged(limited.problems)).toEqual([]);
    expect(judged(refused.problems)).toEqual(['auth_first']);
    expect(session.client.rateLimit).toEqual({ waits: 0, waitedMs: 0, unresolved: 1 });
  });

  it('labels a method the path does not have by method and path', async () => {
    const session = testerSession(await createTestApi());
    const { problems } = await session.send({
      kind: 'method',
      operation: operationOf(session, 'listPets'),
      request: { method: 'PUT', target: '/v1/pets', headers: [], credentials: withKey(session, 'listPets') },
      allowed: ['GET', 'POST', 'HEAD', 'PATCH'],
    });
    expect(problems.map(problemKey)).toEqual(['allow_header_conformance · PUT /pets · 405']);
  });
});

describe('the key of a problem', () => {
  it('is its check, operation and status, and its signature where the check gives one', () => {
    const base = { check: 'response_schema_conformance' as const, label: 'createPet', status: 201 };
    expect(problemKey(base)).toBe('response_schema_conformance · createPet · 201');
    expect(problemKey({ ...base, signature: 'data/status must be equal to one of the allowed values' })).not.toBe(
      problemKey({ ...base, signature: "data must have required property 'id'" }),
    );
  });
});
