import { describe, expect, it } from 'vitest';
import { handlerPath, kebabCase } from '../../../scripts/generate/scaffold.js';

// What a scaffold writes for a new operation, and that it passes, is tested with the rest of the
// journey of a spec edit on a copy of the project: test/scripts/generate.journey.test.ts.

describe('kebabCase and handlerPath', () => {
  it.each([
    ['listStoreOrders', 'list-store-orders'],
    ['getPetByID', 'get-pet-by-id'],
    ['getHTTPStatus', 'get-http-status'],
    ['pets_list2', 'pets-list2'],
  ])('%s → %s', (operationId, kebab) => {
    expect(kebabCase(operationId)).toBe(kebab);
    expect(handlerPath(operationId)).toBe(`src/handlers/${kebab}.ts`);
  });
});
