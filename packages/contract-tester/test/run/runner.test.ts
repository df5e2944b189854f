import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECKS } from '../../src/registry/checks.js';
import { EMPTY_PROFILE } from '../../src/config.js';
import {
  allocateRuns,
  checkSeed,
  planRun,
  runContractTests,
  RunError,
  runFailed,
  selectChecks,
  selectOperations,
  type RunOptions,
} from '../../src/run/runner.js';
import { Credentials } from '../../src/http/credentials.js';
import { summary } from '../../src/report/report.js';
import { readApiModel, type OperationModel } from '../../src/spec/model.js';
import { backends, createTestApi, PET_STORE_PROFILE, petStoreDocument } from '../support/pet-store.js';

describe('sharing the request budget', () => {
  it('gives each property its share by weight and by the requests its cases send, at least one case, at least the budget in all', () => {
    expect(allocateRuns([{ weight: 1 }, { weight: 3 }], 10)).toEqual([3, 8]);
    expect(allocateRuns([{ weight: 1 }, { weight: 1000 }], 10)).toEqual([1, 10]);
    expect(allocateRuns([{ weight: 2, requestsPerCase: 4 }, { weight: 2 }], 40)).toEqual([5, 20]);
    const runs = allocateRuns(
      Array.from({ length: 40 }, (_, index) => ({ weight: (index % 6) + 1 })),
      10_000,
    );
    expect(runs.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(10_000);
  });

  it("derives each scenario's seed from the run's and its name, so that a scenario replays alone", () => {
    expect(checkSeed(42, 'getPet: valid requests')).toBe(checkSeed(42, 'getPet: valid requests'));
    expect(checkSeed(42, 'getPet: valid requests')).not.toBe(checkSeed(42, 'listPets: valid requests'));
    expect(checkSeed(42, 'getPet: valid requests')).not.toBe(checkSeed(43, 'getPet: valid requests'));
  });
});

describe('choosing what to run', () => {
  it("checks: the default ones and the profile's, narrowed by --checks and --exclude-checks", () => {
    expect(selectChecks(EMPTY_PROFILE)).toEqual([...DEFAULT_CHECKS]);
    expect(selectChecks(EMPTY_PROFILE, undefined, undefined, true)).toContain('max_response_time');
    expect(selectChecks(PET_STORE_PROFILE)).toEqual(expect.arrayContaining(['auth_first', 'listing_audit', 'not_a_server_error']));
    expect(selectChecks(EMPTY_PROFILE, ['ignored_auth', 'use_after_free'], ['use_after_free'])).toEqual(['ignored_auth']);
    expect(selectChecks(EMPTY_PROFILE, undefined, ['ignored_auth'])).not.toContain('ignored_auth');
    expect(() => selectChecks(EMPTY_PROFILE, ['auth_first'])).toThrow('auth_first: needs turning on');
    expect(() => selectChecks(EMPTY_PROFILE, ['status_code'])).toThrow(
      /^no check named status_code; the checks are:\n {2}not_a_server_error: no 5xx .*\n/,
    );
  });

  it('operations: by id, tag, path (exact, or ^ a regular expression) and method, their exclusions, and deprecation', () => {
    // What each filter keeps is read from the spec's own operations, so that none is listed here.
    const api = readApiModel(petStoreDocument());
    const ids = (filters: Parameters<typeof selectOperations>[1]) => selectOperations(api, filters).map(({ id }) => id);
    const where = (keep: (operation: OperationModel) => boolean) => api.operations.filter(keep).map(({ id }) => id);
    const all = where(() => true);
    const tags = [...new Set(api.operations.flatMap((operation) => operation.tags))];
    const paths = [...new Set(api.operations.map(({ path }) => path))];
    const methods = [...new Set(api.operations.map(({ method }) => method))];
    expect([all.length, tags.length, paths.length, methods.length].every((count) => count > 1)).toBe(true);
    expect(ids({})).toEqual(all);
    for (const id of all) expect(ids({ operations: [id] })).toEqual([id]);
    for (const tag of tags) {
      expect(ids({ tags: [tag] })).toEqual(where((operation) => operation.tags.includes(tag)));
      expect(ids({ excludeTags: [tag], excludeOperations: [all[0]!] })).toEqual(
        where(({ id, tags: its }) => !its.includes(tag) && id !== all[0]),
      );
    }
    for (const path of paths) expect(ids({ paths: [path] })).toEqual(where((operation) => operation.path === path));
    for (const method of methods) {
      expect(ids({ paths: ['^/pets/'], methods: [method.toUpperCase()] })).toEqual(
        where((operation) => operation.path.startsWith('/pets/') && operation.method === method),
      );
      expect(ids({ excludeMethods: [method] })).toEqual(where((operation) => operation.method !== method));
    }
    expect(where(({ deprecated }) => deprecated)).not.toEqual([]);
    expect(ids({ excludeDeprecated: true })).toEqual(where(({ deprecated }) => !deprecated));
    expect(() => ids({ operations: ['nothing'] })).toThrow(`no operation nothing in the spec; it has ${all.join(', ')}`);
  });

  it('a plan, sent nowhere: the checks, the scenarios with their cases, what is left out and why', () => {
    const plan = planRun({
      baseUrl: 'http://127.0.0.1:1/v1',
      document: petStoreDocument(),
      requests: 100,
      seed: 1,
      filters: { operations: ['getPet'] },
    });
    expect(plan.checks).toEqual([...DEFAULT_CHECKS]);
    expect(plan.tested).toEqual([]);
    expect(plan.skipped).toEqual([
      {
        operation: 'getPet',
        reason: 'it needs bearerAuth (http bearer); give --security NAME=VALUE (or --auth, --api-key, -H)',
        credentials: true,
      },
    ]);
    expect(plan.filteredOut).toEqual(
      readApiModel(petStoreDocument())
        .operations.map(({ id }) => id)
        .filter((id) => id !== 'getPet'),
    );
    const keyed = planRun({
      baseUrl: 'http://127.0.0.1:1/v1',
      document: petStoreDocument(),
      requests: 100,
      seed: 1,
      credentials: { apiKey: 'k' },
      filters: { operations: ['getPet'] },
    });
    expect(keyed.scenarios.find(({ name }) => name === 'getPet: valid requests')).toMatchObject({ phase: 'fuzzing', fixed: false });
    expect(keyed.scenarios.find(({ name }) => name === 'getPet: examples')).toMatchObject({ phase: 'examples', fixed: true });
  });
});

describe('a run that cannot start', () => {
  const options = (baseUrl: string, extra: Partial<RunOptions> = {}): RunOptions => ({
    baseUrl,
    requests: 10,
    seed: 1,
    document: petStoreDocument(),
    credentials: { apiKey: 'psk_x' },
    ...extra,
  });

  it('says the deployment does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(runContractTests(options(`http://127.0.0.1:${port}/v1`))).rejects.toThrow(
      new RunError(`http://127.0.0.1:${port}/v1 does not answer: no response: connect ECONNREFUSED 127.0.0.1:${port}`),
    );
  });

  it('says the credentials are refused, and names unknown operations, checks and scenarios', async () => {
    const { origin } = await createTestApi();
    const baseUrl = `${origin}/v1`;
    await expect(runContractTests(options(baseUrl, { credentials: { apiKey: 'psk_wrong' } }))).rejects.toThrow(
      /refuses the credentials \(401 to listPets\)/,
    );
    await expect(runContractTests(options(baseUrl, { filters: { operations: ['deletePets'] } }))).rejects.toThrow(
      /^no operation deletePets in the spec; it has listPets, /,
    );
    await expect(runContractTests(options(baseUrl, { checks: ['everything'] }))).rejects.toThrow(
      /^no check named everything; the checks are:\n/,
    );
    await expect(runContractTests(options(baseUrl, { replay: { scenario: 'getPet: everything', path: '1' } }))).rejects.toThrow(
      /^no scenario named getPet: everything; the scenarios are:\n {2}listPets: examples\n/,
    );
  });
});

describe('a run with a time limit', () => {
  it('starts no new case once it is up, and says which scenarios it did not run', async () => {
    const { origin, key } = await createTestApi();
    // The budget is spent while reading, planning or running, depending on how busy the machine is:
    // each is a bounded end that says what it left out.
    const outcome = await runContractTests({
      baseUrl: `${origin}/v1`,
      credentials: { apiKey: key },
      requests: 100,
      seed: 3,
      document: petStoreDocument(),
      maxTimeSeconds: 0.001,
    }).catch((error: unknown) => error);
    if (outcome instanceof RunError) {
      expect(outcome.message).toMatch(/^--max-time 0\.001 s was reached while reading/);
      return;
    }
    const run = outcome as Awaited<ReturnType<typeof runContractTests>>;
    const notRun = run.scenarios.filter(({ status }) => status === 'skipped');
    const notPlanned = run.skipped.filter(({ reason }) => reason.startsWith('not planned: --max-time'));
    expect(notRun.length + notPlanned.length).toBeGreaterThan(0);
    expect(notRun.every(({ note }) => note === 'not run: --max-time reached')).toBe(true);
    expect(run.scenarios.filter(({ status }) => status !== 'skipped')).toHaveLength(0);
    expect(runFailed({ ...run, failures: [], notExercised: ['x'], failOnNotExercised: false })).toBe(false);
    expect(runFailed({ ...run, failures: [], notExercised: ['x'], failOnNotExercised: true })).toBe(true);
  });
});

describe('a run without credentials', () => {
  it("says each operation it cannot test and why, and runs what needs none (the profile's 401 first)", async () => {
    const { origin } = await createTestApi();
    const run = await runContractTests({
      baseUrl: `${origin}/v1`,
      requests: 100,
      seed: 5,
      document: petStoreDocument(),
      profile: PET_STORE_PROFILE,
    });
    expect(run.skipped.map(({ operation }) => operation)).toEqual(readApiModel(petStoreDocument()).operations.map(({ id }) => id));
    expect(run.skipped[0]!.reason).toMatch(/^it needs bearerAuth \(http bearer\)/);
    expect(run.scenarios.every(({ name, status }) => name.endsWith(': 401 first') && status === 'passed')).toBe(true);
    expect(run.failures).toEqual([]);
    expect(run.notExercised).toEqual([]);
    expect(run.requests).toBeGreaterThanOrEqual(100);
    // Testing less than it was pointed at fails the run, with a message, unless the user said to skip.
    expect(run.unauthenticated).toEqual(run.skipped.map(({ operation }) => operation));
    expect(runFailed(run)).toBe(true);
    expect(summary(run, { credentials: new Credentials({}), command: 'x' })).toMatch(
      /✗ No credentials: listPets, .* need credentials the tester was not given, and were not tested\.\n {2}Give them \(--security NAME=VALUE, --auth, --api-key or -H\), or pass --skip-unauthenticated/,
    );
    expect(runFailed({ ...run, skipUnauthenticated: true })).toBe(false);
  });
});

describe.each(backends)('the real pet store [$name]', { timeout: 120_000 }, (backend) => {
  it('passes every check with its house rules on, every operation exercised, within the budget', async () => {
    const { origin, key } = await createTestApi({ backend });
    const run = await runContractTests({
      baseUrl: `${origin}/v1`,
      credentials: { apiKey: key },
      requests: 1500,
      seed: 7,
      document: petStoreDocument(),
      profile: PET_STORE_PROFILE,
    });
    expect(run.failures.map((failure) => `${failure.check} · ${failure.label} · ${failure.status}: ${failure.message}`)).toEqual([]);
    expect(run.scenarios.filter(({ status }) => status !== 'passed')).toEqual([]);
    // The listing audit ran on the pets' collection (the spec has others, audited after it).
    expect(run.scenarios).toContainEqual(expect.objectContaining({ name: 'stateful: listPets lists each createPet', status: 'passed' }));
    expect(run.notExercised).toEqual([]);
    expect(runFailed(run)).toBe(false);
    expect(run.requests).toBeGreaterThanOrEqual(1500);
  });
});
