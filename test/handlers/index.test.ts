import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../generated/contract.js';
import { loadContract } from '../../src/contract/contract.js';
import { createHandlers } from '../../src/handlers/index.js';
import { openTestStorage } from '../support/test-app.js';

describe('createHandlers', () => {
  it('gives every operation of openapi.yaml a handler, and nothing else', async () => {
    const handlers = createHandlers({ storage: await openTestStorage(), basePath: '/v1' });
    const operationIds = loadContract().operations.map(({ operation }) => operation.operationId);
    expect(Object.keys(handlers).sort()).toEqual([...operationIds].sort());
    expect(Object.keys(OPERATIONS).sort()).toEqual([...operationIds].sort());
    for (const handler of Object.values(handlers)) expect(handler).toBeTypeOf('function');
  });
});
