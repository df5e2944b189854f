import fc from 'fast-check';
import { RULES } from './invalid-values.js';
import { linkSuppliedParameters } from './links.js';
import { BODY_RULES, negativeCases, type NegativeCase } from './negative-requests.js';
import { allowedMethods, unknownPathCases, withoutValidCredentials, wrongMethodCases } from './request-variants.js';
import { buildRequest, positiveParts } from './requests.js';
import type { Session } from './session.js';
import type { OperationModel } from './spec-model.js';
import { runSequence, sequences } from './stateful.js';

/** One property of the deployment: cases from an arbitrary, each sent and judged by `run`. */
export interface Check {
  name: string;
  /** What it belongs to in reports: an operationId, a path, or `links`. */
  group: string;
  /** Its share of the request budget, relative to the other checks. */
  weight: number;
  /** Whether it sends the tester's key (and so cannot run without one). */
  needsKey: boolean;
  arbitrary: fc.Arbitrary<unknown>;
  run: (value: unknown) => Promise<void>;
}

function check<T>(
  name: string,
  group: string,
  weight: number,
  needsKey: boolean,
  arbitrary: fc.Arbitrary<T>,
  run: (value: T) => Promise<void>,
): Check {
  return { name, group, weight, needsKey, arbitrary, run: (value) => run(value as T) };
}

/**
 * The checks of the operations under test, all made from the spec: per operation its valid
 * requests, HEAD for a GET, one check per rule a negative case can break, paths it does not have,
 * and 401 first without valid credentials; per path the methods it does not have; and sequences
 * that follow the spec's links.
 */
export function planChecks(session: Session, operations: OperationModel[]): Check[] {
  const { api } = session;
  const checks: Check[] = [];
  const negative =
    (operation: OperationModel, kind: 'negative' | 'method' | 'authentication', allowed?: string[]) =>
    async ({ request, why }: NegativeCase) => {
      await session.send({ kind, operation, request, ...(allowed ? { allowed } : {}) }, [], why);
    };
  for (const operation of operations) {
    const options = { linkSupplied: linkSuppliedParameters(api, operation) };
    const positive = positiveParts(operation, api.basePath, options);
    const secured = operation.credentials.length > 0;
    checks.push(
      check(`${operation.id}: valid requests`, operation.id, 6, secured, positive, async (parts) => {
        await session.send({ kind: 'positive', operation, request: buildRequest(parts) });
      }),
    );
    if (operation.method === 'get') {
      checks.push(
        check(`${operation.id}: HEAD as GET`, operation.id, 1, secured, positive, async (parts) => {
          await session.send(
            { kind: 'head', operation, request: buildRequest({ ...parts, method: 'HEAD' }) },
            [],
            'HEAD must be answered as GET is, without the body (RFC 9110 §9.3.2)',
          );
        }),
      );
    }
    const anyRequest: fc.Arbitrary<NegativeCase>[] = [positive.map((parts) => ({ request: buildRequest(parts), why: 'valid' }))];
    for (const rule of [...RULES, ...BODY_RULES]) {
      const cases = negativeCases(api, operation, rule, options);
      if (!cases) continue;
      anyRequest.push(cases);
      checks.push(check(`${operation.id}: ${rule}`, operation.id, 1, secured, cases, negative(operation, 'negative')));
    }
    checks.push(
      check(
        `${operation.id}: unknown path`,
        operation.id,
        1,
        secured,
        unknownPathCases(api, operation, false, options),
        negative(operation, 'negative'),
      ),
    );
    if (secured) {
      const wrongMethod = wrongMethodCases(api, operation.path, options);
      const everything = fc.oneof(...anyRequest, unknownPathCases(api, operation, true, options), ...(wrongMethod ? [wrongMethod] : []));
      checks.push(
        check(
          `${operation.id}: 401 without valid credentials`,
          operation.id,
          2,
          false,
          withoutValidCredentials(operation, everything),
          negative(operation, 'authentication'),
        ),
      );
    }
  }
  for (const path of [...new Set(operations.map(({ path }) => path))]) {
    const options = { linkSupplied: new Set<string>() };
    const cases = wrongMethodCases(api, path, options);
    const operation = operations.find((candidate) => candidate.path === path)!;
    if (cases)
      checks.push(
        check(
          `${path}: methods not allowed`,
          path,
          1,
          operation.credentials.length > 0,
          cases,
          negative(operation, 'method', allowedMethods(api, path)),
        ),
      );
  }
  const linked = operations.some((operation) => operation.responses.some(({ links }) => links.length));
  if (linked) {
    const ids = new Set(operations.map(({ id }) => id));
    checks.push(
      check('links: sequences', 'links', 6, true, sequences(session, operations), (actions) => runSequence(session, actions, ids)),
    );
  }
  return checks;
}
