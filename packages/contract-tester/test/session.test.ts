import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CaseFailure } from '../src/session.js';
import type { TestRequest } from '../src/requests.js';
import { operationOf, testerSession } from './support/tester-session.js';
import { createTestApi } from './support/pet-store.js';

const json = (body: unknown) => Buffer.from(JSON.stringify(body));
const createRequest = (body: unknown): TestRequest => ({
  method: 'POST',
  target: '/v1/pets',
  headers: [{ name: 'Content-Type', value: 'application/json' }],
  credentials: { kind: 'key', schemes: [{ type: 'bearer' }] },
  body: json(body),
});

describe('a tester session', () => {
  it('sends a case and returns the exchange when the answer keeps the contract and the expectation', async () => {
    const session = testerSession(await createTestApi());
    const exchange = await session.send({
      kind: 'positive',
      operation: operationOf(session, 'createPet'),
      request: createRequest({ name: 'Rex', categoryId: 3 }),
    });
    expect(exchange.response).toMatchObject({ status: 201, body: { id: 1, name: 'Rex', categoryId: 3 } });
    expect(session.created).toEqual([{ operationId: 'createPet', request: exchange.request, body: exchange.response.body }]);
  });

  it('throws a CaseFailure with the earlier steps, the request and its answer, and why the case was made', async () => {
    const session = testerSession(await createTestApi());
    const earlier = [{ request: createRequest({}) }];
    const failure = await session
      .send({ kind: 'positive', operation: operationOf(session, 'createPet'), request: createRequest({ name: 'Rex' }) }, earlier, 'a test')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CaseFailure);
    const { problems, steps } = failure as CaseFailure;
    expect(problems[0]).toBe('the request: a test');
    expect(problems[1]).toMatch(/^a valid request must be accepted, but got 400 .*validation_failed/);
    expect(steps.map(({ request, response }) => [request.body?.toString(), response?.status])).toEqual([
      ['{}', undefined],
      ['{"name":"Rex"}', 400],
    ]);
    expect(session.created).toEqual([]);
  });

  it('holds every answer to the contract, whatever the case expects', async () => {
    const session = testerSession(
      await createTestApi({
        handlers: {
          createPet: async ({ body }) => ({
            status: 201,
            body: { id: 1, ...body, name: `${body.name}!` },
            headers: { Location: '/v1/pets/1' },
          }),
        },
      }),
    );
    const failure = (await session
      .send({ kind: 'positive', operation: operationOf(session, 'createPet'), request: createRequest({ name: 'Rex', categoryId: 3 }) })
      .catch((error: unknown) => error)) as CaseFailure;
    expect(failure.problems).toEqual(['name was sent as "Rex" but came back as "Rex!"']);
  });

  it('turns a deployment that does not answer into a failure of the case', async () => {
    const server = createServer((request) => request.socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const session = testerSession({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: 'psk_x' });
    const failure = (await session
      .send({ kind: 'positive', operation: operationOf(session, 'createPet'), request: createRequest({}) })
      .catch((error: unknown) => error)) as CaseFailure;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(failure).toBeInstanceOf(CaseFailure);
    expect(failure.problems[0]).toMatch(/^no response: /);
    expect(failure.steps).toHaveLength(1);
  });
});
