import { describe, expect, it } from 'vitest';
import { responseCheck } from '../../src/checks/response-check.js';
import { CHECK, describeCheck } from '../../src/registry/checks.js';

describe('a response check', () => {
  it('takes its description from the registry, and keeps its scope and function', () => {
    const run = () => ['found'];
    const check = responseCheck(CHECK.head_as_get, 'routed', run);
    expect(check).toEqual({ name: 'head_as_get', description: describeCheck('head_as_get'), scope: 'routed', run });
    expect(check.description.length).toBeGreaterThan(10);
  });
});
