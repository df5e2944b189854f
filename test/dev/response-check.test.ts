import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { responseCheck } from '../../src/dev/response-check.js';
import type { OperationHandlers } from '../../src/handlers/operation.js';
import { createTestApi } from '../support/test-app.js';

const contract = loadContract();

/** The server with npm run dev's check on, these handlers in place of the real ones, and what the check reported. */
async function checked(handlers: Partial<OperationHandlers>) {
  const reported: string[] = [];
  const t = await createTestApi({ handlers, checkOutcomes: responseCheck(contract, (line) => reported.push(line)) });
  return { ...t, reported };
}

const REX = { id: 1, name: 'Rex', categoryId: 1 };
const messageOf = (res: { body: unknown }) => (res.body as { message: string }).message;

describe("npm run dev's response check", () => {
  it('sends an answer that keeps the contract as it is, and says nothing', async () => {
    const t = await checked({ getPet: () => ({ status: 200, body: REX, headers: { ETag: '"1-1"' } }) });
    const res = await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    expect(res.body).toEqual(REX);
    expect(t.reported).toEqual([]);
  });

  it('answers 500 instead of a status the operation does not document, naming the operation, the status and the ones documented', async () => {
    const documented = Object.keys(contract.operations.find(({ operation }) => operation.operationId === 'getPet')!.operation.responses);
    // A handler the type check would refuse, as npm run dev serves it anyway.
    const t = await checked({ getPet: () => ({ status: 418 }) as never });
    const res = await t.api.get('/v1/pets/1').set(t.auth).expect(500);
    expect(res.body).toMatchObject({ code: 'internal_error', status: 500 });
    expect(messageOf(res)).toBe(
      `getPet answered 418, which openapi.yaml does not allow (npm run dev checks every answer): ` +
        `GET /v1/pets/1 → 418: status 418 is not documented for getPet (documented: ${documented.join(', ')})`,
    );
    expect(t.reported).toEqual([
      `[response check] getPet answered 418, which openapi.yaml does not allow; sent 500 instead: GET /v1/pets/1 → 418: status 418 is not documented for getPet (documented: ${documented.join(', ')})`,
    ]);
  });

  it('answers 500 instead of a body its schema refuses, and prints the body under the line', async () => {
    const t = await checked({ getPet: () => ({ status: 200, body: { ...REX, name: 42 }, headers: { ETag: '"1-1"' } }) as never });
    const res = await t.api.get('/v1/pets/1').set(t.auth).expect(500);
    expect(messageOf(res)).toMatch(
      /^getPet answered 200, which openapi\.yaml does not allow .*: GET \/v1\/pets\/1 → 200 body breaks the contract \(.*\): .*name/,
    );
    expect(t.reported[0]).toMatch(
      /^\[response check\] getPet answered 200, which openapi\.yaml does not allow; sent 500 instead: .*body breaks the contract/,
    );
    expect(t.reported.slice(1)).toEqual([`  ${JSON.stringify({ ...REX, name: 42 })}`]);
  });

  it('refuses a documented body left out, and a required header missing', async () => {
    const t = await checked({ getPet: () => ({ status: 200 }) as never });
    const res = await t.api.get('/v1/pets/1').set(t.auth).expect(500);
    expect(messageOf(res)).toContain('the body is empty');
    expect(messageOf(res)).toContain('required header ETag is missing');
  });

  it('checks a recorded answer as it will be sent', async () => {
    const t = await checked({
      createPet: ({ render }) => ({
        recorded: render({ status: 201, body: { ...REX, name: '' }, headers: { Location: '/v1/pets/1', ETag: '"1-1"' } }),
        replayed: false,
      }),
    });
    const res = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 1 }).expect(500);
    expect(messageOf(res)).toMatch(/^createPet answered 201, .*body breaks the contract/);
  });

  it('checks the real handlers without a finding', async () => {
    const t = await checked({});
    const created = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 1 }).expect(201);
    await t.api
      .get(`/v1/pets/${(created.body as { id: number }).id}`)
      .set(t.auth)
      .expect(200);
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    await t.api
      .delete(`/v1/pets/${(created.body as { id: number }).id}`)
      .set(t.auth)
      .expect(204);
    expect(t.reported).toEqual([]);
  });
});
