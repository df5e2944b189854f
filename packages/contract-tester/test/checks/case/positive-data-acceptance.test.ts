import { describe, expect, it } from 'vitest';
import { positiveDataAcceptance } from '../../../src/checks/case/positive-data-acceptance.js';
import { minimalSpec } from '../../support/semantics/minimal.js';
import { readApiModel } from '../../../src/spec/model.js';
import { answered, BOARD_API, caseAnswer, GET_PET, operationOf } from '../../support/case-answer.js';

const judge = (...args: Parameters<typeof caseAnswer>) => positiveDataAcceptance.answer(caseAnswer(...args));

describe('positive_data_acceptance', () => {
  it('refuses no valid request as sent (a status that says the request is malformed)', () => {
    expect([200, 404, 410, 403, 409, 422, 500].flatMap((status) => judge(answered(status)))).toEqual([]);
    expect(judge(answered(400, { code: 'x' }))).toEqual(['a valid request must be accepted, but got 400 {"code":"x"}']);
    expect([401, 405, 415, 431].map((status) => judge(answered(status)).length)).toEqual([1, 1, 1, 1]);
  });

  it("takes a valid write refused with a 400 it documents as the state's refusal, never a read", () => {
    const mark = { operation: operationOf('markSquare', BOARD_API), request: { ...GET_PET, method: 'PUT' } };
    expect(judge(answered(400), mark)).toEqual([]);
    expect(judge(answered(400), { operation: operationOf('getSquare', BOARD_API) })).toHaveLength(1);
  });

  it('takes a documented 401 from an operation that asks no credentials as the state (a user it does not know)', () => {
    const token = readApiModel(
      minimalSpec(
        {
          '/token': {
            post: {
              operationId: 'token',
              security: [],
              responses: { '200': { description: 'a token' }, '401': { description: 'unknown user or password' } },
            },
          },
          '/undocumented': { post: { operationId: 'undocumented', security: [], responses: { '200': { description: 'ok' } } } },
          '/me': { get: { operationId: 'me', responses: { '200': { description: 'me' }, '401': { description: 'no key' } } } },
        },
        { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        { security: [{ bearer: [] }] },
      ),
    );
    const post = { ...GET_PET, method: 'POST', target: '/token' };
    expect(judge(answered(401), { operation: operationOf('token', token), request: post })).toEqual([]);
    // Undocumented, or to the credentials the tester was given: refused.
    expect(judge(answered(401), { operation: operationOf('undocumented', token), request: post })).toHaveLength(1);
    expect(judge(answered(401), { operation: operationOf('me', token) })).toHaveLength(1);
  });

  it('lets a request line over 8000 octets be refused for it (414, 431), a shorter one not', () => {
    const long = { request: { ...GET_PET, target: `/v1/pets?tags=${'a'.repeat(8000)}` } };
    expect(judge(answered(414), long)).toEqual([]);
    expect(judge(answered(431), long)).toEqual([]);
    expect(judge(answered(414))).toHaveLength(1);
    expect(judge(answered(400), long)).toHaveLength(1);
  });
});
