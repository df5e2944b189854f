import { describe, expect, it } from 'vitest';
import { RESPONSE_CHECKS } from '../../src/checks/response-checks.js';
import { describeCheck } from '../../src/registry/checks.js';
import { errorBody, observed, petStoreChecker } from '../support/observed-response.js';

describe('the checks of a response', () => {
  it('runs each check of a response as one named function, in a module of its own, described as the registry describes it', () => {
    const names = RESPONSE_CHECKS.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const check of RESPONSE_CHECKS) {
      expect(check.description, check.name).toBe(describeCheck(check.name));
      expect(check.check.name, check.name).toBe(check.name.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase()));
    }
  });

  it('reports findings in the order of the list', () => {
    const order: readonly string[] = RESPONSE_CHECKS.map(({ name }) => name);
    const response = observed({
      method: 'PUT',
      status: 405,
      body: errorBody(404, 'method_not_allowed'),
      headers: { 'cache-control': undefined, 'x-powered-by': 'Express' },
    });
    const checks = petStoreChecker()
      .findings(response)
      .map(({ check }) => check);
    expect(checks).toEqual(['unsupported_method', 'forbidden_response_headers', 'required_response_headers', 'error_schema_conformance']);
    expect(checks.map((check) => order.indexOf(check))).toEqual([...checks.map((check) => order.indexOf(check))].sort((a, b) => a - b));
  });
});
