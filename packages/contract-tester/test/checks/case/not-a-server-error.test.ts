import { describe, expect, it } from 'vitest';
import { notAServerError } from '../../../src/checks/case/not-a-server-error.js';
import { answered, caseAnswer, operationOf } from '../../support/case-answer.js';

const judge = (...args: Parameters<typeof caseAnswer>) => notAServerError.answer(caseAnswer(...args));

describe('not_a_server_error', () => {
  it('finds a 5xx, but one an operation announces as its only answer', () => {
    expect([200, 400, 404, 499].flatMap((status) => judge(answered(status)))).toEqual([]);
    expect(judge(answered(500, { code: 'internal_error' }))).toEqual(['a server error: 500 {"code":"internal_error"}']);
    // An operation that documents nothing but a 501 (and its errors) answers it until it is implemented.
    const { responses } = operationOf('listStoreOrders');
    const unimplemented = {
      ...operationOf('listStoreOrders'),
      responses: [
        ...responses.filter(({ status }) => /^4/.test(status)),
        { ...responses.find(({ status }) => status === '500')!, status: '501' },
      ],
    };
    expect(judge(answered(501), { operation: unimplemented })).toEqual([]);
    expect(judge(answered(501), { operation: operationOf('listStoreOrders') })).toHaveLength(1);
    // A method or a path the spec does not have is no operation's to announce.
    expect(judge(answered(501), { operation: unimplemented, kind: 'method' })).toHaveLength(1);
    expect(judge(answered(501), { operation: unimplemented, kind: 'unknown-path' })).toHaveLength(1);
  });
});
