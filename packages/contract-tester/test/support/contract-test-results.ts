import { Credentials } from '../../src/http/credentials.js';
import type { ReportContext } from '../../src/report/report.js';
import type { Failure, RunResult, ScenarioResult } from '../../src/run/runner.js';

// A contract test run with a scenario of each outcome and one failure, for the report tests.

export const failure: Failure = {
  check: 'canonical_numbers',
  label: 'getPet',
  status: 200,
  message: 'GET /v1/pets/%2B1 → a request that breaks the contract must be refused with a 4xx, but got 200 {}',
  why: 'petId = "+1" is not a canonical integer',
  steps: [
    {
      request: {
        method: 'GET',
        target: '/v1/pets/%2B1',
        headers: [],
        credentials: {
          kind: 'valid',
          credentials: [
            { scheme: 'bearerAuth', place: 'header', name: 'Authorization', prefix: 'Bearer ', variable: 'CONTRACT_TEST_API_KEY' },
          ],
        },
      },
      response: { status: 200, headers: {}, bytes: Buffer.from('{}'), text: '{}', body: {}, elapsedMs: 3 },
    },
  ],
  scenario: 'getPet: non-canonical number',
  phase: 'fuzzing',
  path: '2:0:1',
  shrinks: 4,
};
export const failed: ScenarioResult = {
  name: 'getPet: non-canonical number',
  phase: 'fuzzing',
  group: 'getPet',
  status: 'failed',
  runs: 3,
  requests: 7,
  seconds: 0.25,
  seed: 99,
  failures: 1,
};
export const passed: ScenarioResult = {
  name: 'getPet: valid requests',
  phase: 'fuzzing',
  group: 'getPet',
  status: 'passed',
  runs: 10,
  requests: 10,
  seconds: 1.5,
  seed: 98,
  failures: 0,
};
export const skipped: ScenarioResult = {
  name: 'stateful: sequences',
  phase: 'stateful',
  group: 'stateful',
  status: 'skipped',
  runs: 0,
  requests: 0,
  seconds: 0,
  seed: 97,
  failures: 0,
  note: 'not run: --max-time reached',
};
export const run: RunResult = {
  baseUrl: 'https://staging-api.petstore.example/v1',
  seed: 42,
  specTitle: 'Pet Store',
  specVersion: '1.0.0',
  requests: 17,
  seconds: 2.5,
  checks: ['not_a_server_error', 'canonical_numbers'],
  scenarios: [passed, failed, skipped],
  failures: [failure],
  skipped: [{ operation: 'uploadPhoto', reason: 'it needs oauth (oauth2)' }],
  unauthenticated: [],
  skipUnauthenticated: false,
  notExercised: ['listStoreOrders'],
  failOnNotExercised: false,
  warnings: ['getPet: example 1 of parameter petId is not valid against its schema; not sent'],
};
export const context: ReportContext = {
  credentials: new Credentials({ apiKey: 'psk_secret' }),
  command:
    'npx openapi-contract-tester --base-url \'https://staging-api.petstore.example/v1\' --spec /specs/openapi.yaml --api-key "$CONTRACT_TEST_API_KEY"',
};
