import { readFileSync } from 'node:fs';
import { afterEach } from 'vitest';
import { DEFAULT_CHECKS, type CheckName } from '../../src/registry/checks.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { EMPTY_PROFILE, type Profile } from '../../src/config.js';
import { Credentials, type CredentialOptions } from '../../src/http/credentials.js';
import { ApiClient } from '../../src/http/http-client.js';
import { PHASES, type Phase, type Plan, type PlanContext } from '../../src/run/plan/scenario.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';
import { Session } from '../../src/stateful/session.js';

const clients: ApiClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

/** A session on a spec, its client pointed at nothing: for planning, which sends no request. */
export function planSession(
  spec: string | OpenApiDocument,
  credentials: CredentialOptions,
  checks: CheckName[] = [...DEFAULT_CHECKS],
  profile: Profile = EMPTY_PROFILE,
): Session {
  const document = typeof spec === 'string' ? parseSpec(readFileSync(spec, 'utf8')) : spec;
  const client = new ApiClient('http://127.0.0.1:1/api', new Credentials(credentials));
  clients.push(client);
  return new Session(readApiModel(document), client, new ContractChecker(document), { checks: new Set(checks), profile });
}

/** What the planners are given for a session: every operation, the phases asked for. */
export function planContext(session: Session, phases: readonly Phase[] = PHASES): PlanContext {
  const on = (...checks: CheckName[]) => checks.some((check) => session.enabled(check));
  return { session, selected: session.api.operations, phases: new Set(phases), on, answers: true };
}

export const emptyPlan = (): Plan => ({ scenarios: [], skipped: [], warnings: [], tested: [] });
