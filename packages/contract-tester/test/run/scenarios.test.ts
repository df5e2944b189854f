import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHECKS, type CheckName } from '../../src/registry/checks.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { EMPTY_PROFILE } from '../../src/config.js';
import { Credentials, type CredentialOptions } from '../../src/http/credentials.js';
import { ApiClient } from '../../src/http/http-client.js';
import { PHASES, planScenarios, type Phase } from '../../src/run/scenarios.js';
import { planRun, RunError } from '../../src/run/runner.js';
import { setGenerationDeadline } from '../../src/deadline.js';
import { Session } from '../../src/stateful/session.js';
import { loadSpec, parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { GALLERY_SPEC } from '../support/test-bed/gallery.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';
import { SHELTER_SPEC } from '../support/test-bed/shelter.js';
import { testerSession } from '../support/tester-session.js';
import { cardsSpec } from '../support/semantics/cards.js';
import { positiveParts } from '../../src/generate/requests.js';
import fc from 'fast-check';
import type { OpenApiDocument } from '../../src/spec/openapi.js';

const clients: ApiClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

function session(spec: string | OpenApiDocument, credentials: CredentialOptions, checks: CheckName[] = [...DEFAULT_CHECKS]): Session {
  const document = typeof spec === 'string' ? parseSpec(readFileSync(spec, 'utf8')) : spec;
  const client = new ApiClient('http://127.0.0.1:1/api', new Credentials(credentials));
  clients.push(client);
  return new Session(readApiModel(document), client, new ContractChecker(document), { checks: new Set(checks), profile: EMPTY_PROFILE });
}

const plan = (of: Session, phases: readonly Phase[] = PHASES) => planScenarios(of, of.api.operations, new Set(phases));

describe('the scenarios of a spec', () => {
  it('by default: examples, boundaries, valid and invalid requests, no credentials, wrong methods, sequences and lifecycles', () => {
    const gallery = session(GALLERY_SPEC, { basic: 'a:b' });
    const names = plan(gallery).scenarios.map(({ name }) => name);
    expect(names.filter((name) => name.startsWith('updateExhibition'))).toEqual([
      'updateExhibition: coverage',
      'updateExhibition: valid requests',
      'updateExhibition: wrong type',
      'updateExhibition: out of bounds',
      'updateExhibition: missing required',
      'updateExhibition: extra property',
      'updateExhibition: bad format',
      'updateExhibition: malformed body',
      'updateExhibition: without credentials',
    ]);
    expect(names).toContain('createExhibition: examples');
    expect(names).toContain('/exhibitions/{exhibitionId}: OPTIONS');
    expect(names).toContain('/exhibitions/{exhibitionId}: methods not allowed');
    expect(names.filter((name) => name.startsWith('stateful'))).toEqual([
      'stateful: sequences',
      'stateful: createExhibition lifecycle, each operation once',
      'stateful: createExhibition lifecycle',
      'stateful: buyTicket lifecycle, each operation once',
      'stateful: buyTicket lifecycle',
    ]);
    // Nothing of a profile: no HEAD, no 401 first, no unknown paths, no non-canonical numbers.
    expect(names.some((name) => /HEAD|401 first|unknown path|non-canonical|badly encoded|unsupported media/.test(name))).toBe(false);
  });

  it('share the budget by weight and by the requests a case sends', () => {
    const { scenarios } = plan(session(GALLERY_SPEC, { basic: 'a:b' }));
    const find = (name: string) => scenarios.find((scenario) => scenario.name === name)!;
    expect(find('getExhibition: valid requests').weight).toBeGreaterThan(find('getExhibition: bad format').weight);
    expect(find('stateful: sequences').requestsPerCase).toBeGreaterThan(1);
    expect(find('getExhibition: without credentials').requestsPerCase).toBe(3);
    expect(find('getExhibition: examples')).toBeUndefined();
    expect(find('updateExhibition: coverage').cases!.length).toBeGreaterThan(0);
  });

  it('of the phases asked for, and the checks that are on', () => {
    const gallery = session(GALLERY_SPEC, { basic: 'a:b' }, ['status_code_conformance']);
    const phases = new Set(plan(gallery, ['coverage', 'stateful']).scenarios.map(({ phase }) => phase));
    expect(phases).toEqual(new Set(['coverage', 'stateful']));
    const names = plan(gallery).scenarios.map(({ name }) => name);
    expect(names.some((name) => /without credentials|wrong type|methods not allowed|OPTIONS/.test(name))).toBe(false);
  });

  it('leave out, with the reason, operations the tester cannot authenticate, and warn of what the spec says that it will not use', () => {
    const board = session(BOARD_SPEC, {});
    const { skipped, tested, warnings } = plan(board);
    expect(tested).toEqual([]);
    expect(skipped[0]).toEqual({
      operation: 'createGame',
      reason:
        'it needs apiKey (apiKey in header X-API-Key), or bearerAuth (http bearer), or oauth (oauth2); give --security NAME=VALUE (or --auth, --api-key, -H)',
      credentials: true,
    });
    expect(warnings).toEqual([]);
  });

  it('say which media types of a body it does not make, and which it tests with', async () => {
    const shelter = await loadSpec(SHELTER_SPEC);
    const client = new ApiClient('http://127.0.0.1:1/api/v3', new Credentials({ security: { oauth: 'o' } }));
    clients.push(client);
    const of = new Session(readApiModel(shelter), client, new ContractChecker(shelter), {
      checks: new Set(DEFAULT_CHECKS),
      profile: EMPTY_PROFILE,
    });
    expect(plan(of, ['examples']).warnings).toEqual([
      'addAnimal: its application/xml bodies are not made (the tester does not write them); tested with application/json and application/x-www-form-urlencoded',
    ]);
  });

  it('with a profile, add its own: HEAD, 401 first (even where the tester holds no credentials), unknown paths, the listing audit', () => {
    const petStore = testerSession({ origin: 'http://127.0.0.1:1', key: 'psk_x' });
    const names = planScenarios(petStore, petStore.api.operations, new Set(PHASES)).scenarios.map(({ name }) => name);
    for (const name of [
      'listPets: HEAD as GET',
      'getPet: 401 first',
      'createPet: unknown path',
      'createPet: non-canonical number',
      'createPet: unsupported media type',
      'stateful: listPets lists each createPet',
    ]) {
      expect(names).toContain(name);
    }
    const keyless = testerSession({ origin: 'http://127.0.0.1:1', key: '' });
    const withoutKey = planScenarios(keyless, keyless.api.operations, new Set(PHASES));
    expect(withoutKey.tested).toEqual([]);
    expect(withoutKey.scenarios.map(({ name }) => name)).toEqual(keyless.api.operations.map(({ id }) => `${id}: 401 first`));
  });

  // The valid-body generator leaves readOnly properties out; a schema that requires one must not
  // make it spin (it did, forever, at 100 % CPU).
  for (const version of ['3.0.3', '3.1.0'] as const) {
    it(`of a body that requires a readOnly property (${version}): valid bodies without it, within a second`, { timeout: 1000 }, () => {
      const [createCard] = readApiModel(parseSpec(JSON.stringify(cardsSpec(version)))).operations;
      const parts = fc.sample(positiveParts(createCard!, '/api', { kind: 'valid', credentials: [] }), { numRuns: 20, seed: 1 });
      for (const { body } of parts) {
        const value = (body as { value: Record<string, unknown> }).value;
        expect(value).not.toHaveProperty('id');
        expect(value).toHaveProperty('cvc');
      }
    });

    it(`of a body that requires a readOnly property (${version}): planned like any other`, () => {
      const cards = session(parseSpec(JSON.stringify(cardsSpec(version))), {});
      const { tested, skipped, scenarios } = plan(cards);
      expect(skipped).toEqual([]);
      expect(tested.map(({ id }) => id)).toEqual(['createCard']);
      expect(scenarios.map(({ name }) => name)).toContain('createCard: valid requests');
    });
  }
});

describe('planning within --max-time', () => {
  const document = () => parseSpec(readFileSync(GALLERY_SPEC, 'utf8'));
  const options = { baseUrl: 'http://127.0.0.1:1/api', requests: 100, seed: 1, credentials: { basic: 'a:b' } };

  it('plans every operation while there is time', () => {
    const plan = planRun({ ...options, document: document(), maxTimeSeconds: 600 });
    expect(plan.tested.length).toBeGreaterThan(0);
    expect(plan.skipped.filter(({ reason }) => reason.includes('--max-time'))).toEqual([]);
  });

  it('stops planning once the budget is spent, each operation left out with the reason', () => {
    const gallery = session(GALLERY_SPEC, { basic: 'a:b' });
    setGenerationDeadline(performance.now() - 1);
    try {
      const truncated = plan(gallery);
      expect(truncated.tested).toEqual([]);
      expect(truncated.scenarios).toEqual([]);
      expect(truncated.skipped.map(({ operation }) => operation)).toEqual(gallery.api.operations.map(({ id }) => id));
      for (const { reason } of truncated.skipped) expect(reason).toBe('not planned: --max-time was reached while planning');
    } finally {
      setGenerationDeadline(undefined);
    }
  });

  it(
    'stops wherever the budget ends, mid-generation too: an operation is planned whole or listed as not planned',
    { timeout: 120_000 },
    () => {
      // A clock that ticks once per reading makes the deadline fall at every point of planning in
      // turn, inside the generators' samples and filters as well, without timing anything.
      const full = planRun({ ...options, document: document() });
      const scenariosOf = (plan: typeof full, id: string) => plan.scenarios.filter(({ group }) => group === id).map(({ name }) => name);
      let clock = 0;
      let planned = 0;
      const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1));
      try {
        for (let budget = 100; budget <= 6100; budget += 250) {
          clock = 0;
          const spec = document();
          let plan;
          try {
            plan = planRun({ ...options, document: spec, maxTimeSeconds: budget / 1000, startedAt: 0 });
          } catch (error) {
            // A budget that ends while the spec is read: the run cannot start, and says so.
            expect(error, `budget ${budget}`).toBeInstanceOf(RunError);
            expect((error as Error).message).toMatch(/--max-time .*reached while reading/);
            continue;
          }
          planned += 1;
          expect(plan.tested.length + plan.skipped.length, `budget ${budget}`).toBe(full.tested.length);
          for (const id of plan.tested) expect(scenariosOf(plan, id), `${id} at budget ${budget}`).toEqual(scenariosOf(full, id));
          for (const { reason } of plan.skipped) expect(reason).toBe('not planned: --max-time was reached while planning');
        }
      } finally {
        now.mockRestore();
      }
      expect(planned, 'budgets that got as far as planning').toBeGreaterThan(10);
    },
  );

  it('a budget spent before the operations are read: the run cannot start, and says why; no deadline is left behind', () => {
    const spent = { ...options, document: document(), maxTimeSeconds: 1, startedAt: performance.now() - 10_000 };
    expect(() => planRun(spent)).toThrow(/--max-time 1 s was reached while reading the spec's operations/);
    expect(planRun({ ...options, document: document() }).tested.length).toBeGreaterThan(0);
  });

  it('refuses a spec whose security is not a list, naming where, as a run that cannot start', () => {
    const spec = document();
    const first = Object.values(spec.paths)[0] as Record<string, Record<string, unknown>>;
    const operation = Object.values(first).find((value) => value && typeof value === 'object' && 'responses' in value)!;
    operation['security'] = { basicAuth: [] };
    expect(() => planRun({ ...options, document: spec })).toThrow(RunError);
    expect(() => planRun({ ...options, document: spec })).toThrow(/security is \{"basicAuth":\[\]\}: OpenAPI's security is a list/);
  });
});
