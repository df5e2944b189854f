import type { CheckResult, RunResult } from '../../src/runner.js';

// A contract test run with one check of each outcome, for the report and JUnit tests.

export const failed: CheckResult = {
  name: 'getPet: non-canonical number',
  group: 'getPet',
  status: 'failed',
  runs: 3,
  requests: 7,
  seconds: 0.25,
  seed: 99,
  failure: {
    problems: [
      'the request: petId = "+1" is not a canonical integer',
      'a request that breaks the contract must be refused with a 4xx, but got 200 {}',
    ],
    steps: [
      {
        request: { method: 'GET', target: '/v1/pets/%2B1', headers: [], credentials: { kind: 'key', schemes: [{ type: 'bearer' }] } },
        response: { status: 200, headers: {}, bytes: Buffer.from('{}'), text: '{}', body: {} },
      },
    ],
    path: '2:0:1',
    shrinks: 4,
  },
};
export const passed: CheckResult = {
  name: 'getPet: valid requests',
  group: 'getPet',
  status: 'passed',
  runs: 10,
  requests: 10,
  seconds: 1.5,
  seed: 98,
};
export const skipped: CheckResult = {
  name: 'links: sequences',
  group: 'links',
  status: 'skipped',
  runs: 0,
  requests: 0,
  seconds: 0,
  seed: 97,
  note: 'needs an API key',
};
export const run: RunResult = {
  baseUrl: 'https://staging-api.petstore.example/v1',
  seed: 42,
  specVersion: '1.0.0',
  requests: 17,
  seconds: 2.5,
  results: [passed, failed, skipped],
};
