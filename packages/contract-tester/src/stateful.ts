import fc from 'fast-check';
import { jsonEqual } from './json-text.js';
import { linksFrom, linkSuppliedParameters, type Exchange, type LinkStep } from './links.js';
import { buildRequest, positiveParts, type RequestParts } from './requests.js';
import { CaseFailure, type Session, type Step } from './session.js';
import { documentedResponse, type OperationModel } from './spec-model.js';

/** One step of a sequence: a valid request of an operation, or following one of the links seen so far. */
export type Action = { kind: 'call'; operation: OperationModel; parts: RequestParts } | { kind: 'follow'; pick: number };

/** Sequences of valid requests and link follows over the operations, with at least one request. */
export function sequences(session: Session, operations: OperationModel[]): fc.Arbitrary<Action[]> {
  const { api } = session;
  const call = fc.oneof(
    ...operations.map((operation) =>
      positiveParts(operation, api.basePath, { linkSupplied: linkSuppliedParameters(api, operation) }).map((parts): Action => ({
        kind: 'call',
        operation,
        parts,
      })),
    ),
  );
  const follow = fc.nat().map((pick): Action => ({ kind: 'follow', pick }));
  // Any sequence with a request sends one (a follow with nothing to follow sends none), and the
  // shrinker may still drop the first request when a later one is what fails.
  return fc
    .array(fc.oneof({ weight: 1, arbitrary: call }, { weight: 2, arbitrary: follow }), { minLength: 1, maxLength: 9 })
    .filter((actions) => actions.some(({ kind }) => kind === 'call'));
}

/** How the schema of an exchange's body is known in the spec (its `$ref` target), if it is. */
function schemaOf(exchange: Exchange): string | undefined {
  return documentedResponse(exchange.operation, exchange.response.status)?.schemaPointer;
}

/**
 * What following a link must show beyond a success: a write's result reads back unchanged where the
 * target answers with the same schema, and a next page repeats nothing of the page before.
 */
function linkProblems(step: LinkStep, reached: Exchange): string[] {
  const source = step.from;
  const problems: string[] = [];
  const write = !['get', 'head'].includes(source.operation.method);
  if (
    write &&
    schemaOf(source) !== undefined &&
    schemaOf(source) === schemaOf(reached) &&
    !jsonEqual(source.response.body, reached.response.body)
  ) {
    problems.push(
      `${reached.operation.id} reads back ${JSON.stringify(reached.response.body)}, not what ${source.operation.id} answered: ${JSON.stringify(source.response.body)}`,
    );
  }
  if (step.link.header && Array.isArray(source.response.body) && Array.isArray(reached.response.body)) {
    const previous = source.response.body as unknown[];
    const repeated = (reached.response.body as unknown[]).filter((item) => previous.some((earlier) => jsonEqual(earlier, item)));
    if (repeated.length)
      problems.push(
        `the ${step.link.header.rel} page repeats ${repeated.length} item(s) of the page before: ${JSON.stringify(repeated[0])}`,
      );
  }
  return problems;
}

/**
 * Runs a sequence: each request checked as a valid one, each followed link as a link (a success,
 * read back unchanged, pages without repeats). Links come from the spec's `links` of the responses
 * seen, restricted to the operations under test.
 */
export async function runSequence(session: Session, actions: Action[], operations: ReadonlySet<string>): Promise<void> {
  const steps: Step[] = [];
  const pending: LinkStep[] = [];
  for (const action of actions) {
    let exchange: Exchange;
    if (action.kind === 'call') {
      exchange = await session.send({ kind: 'positive', operation: action.operation, request: buildRequest(action.parts) }, steps);
    } else {
      if (!pending.length) continue;
      const step = pending[action.pick % pending.length]!;
      const why = `follows link ${step.link.name} of ${step.from.operation.id}`;
      exchange = await session.send({ kind: 'link', operation: step.target, request: step.request }, steps, why);
      const problems = linkProblems(step, exchange);
      if (problems.length)
        throw new CaseFailure([`the request: ${why}`, ...problems], [...steps, { request: exchange.request, response: exchange.response }]);
    }
    steps.push({ request: exchange.request, response: exchange.response });
    for (const next of linksFrom(session.api, exchange, session.client.origin)) {
      if (typeof next === 'string') throw new CaseFailure([next], steps);
      if (operations.has(next.target.id)) pending.push(next);
    }
  }
}
