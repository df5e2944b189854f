import { listingAudit as listingAuditCheck } from '../../stateful/checks/listing-audit.js';
import fc from 'fast-check';
import { baseParts } from '../../generate/examples.js';
import type { OperationModel } from '../../spec/model.js';
import { auditCollection, findCollections, type Collection } from '../../stateful/listing-audit.js';
import { lifecycle, linkSources, resourceOperations, runSequence, sequences, type Action } from '../../stateful/sequences.js';
import type { Session } from '../../stateful/session.js';
import { fixed, property, type Scenario } from './scenario.js';

/**
 * The stateful phase, over the operations under test: sequences that follow links and what creates
 * make, each create's lifecycle (each operation once in order, and as a property), and the listing
 * audit.
 */
export function statefulScenarios(session: Session, tested: OperationModel[]): Scenario[] {
  const { api } = session;
  const scenarios: Scenario[] = [];
  const ids = new Set(tested.map(({ id }) => id));
  const linked = tested.some((operation) => operation.responses.some(({ links }) => links.some((link) => ids.has(link.targetOperationId))));
  const creators = tested.filter((operation) => operation.method === 'post' && resourceOperations(session, operation, tested).length > 0);
  if (linked || creators.length) {
    scenarios.push({
      ...property(
        'stateful: sequences',
        'stateful',
        'stateful',
        6,
        fc.tuple(sequences(session, tested), fc.nat()),
        ([actions, seed]: [Action[], number]) => runSequence(session, actions, ids, seed),
      ),
      requestsPerCase: 3,
    });
  }
  for (const create of creators) {
    scenarios.push(
      fixed(
        `stateful: ${create.id} lifecycle, each operation once`,
        'stateful',
        'stateful',
        [orderedLifecycle(session, create, tested)],
        (value: Action[]) => runSequence(session, value, ids),
      ),
    );
    const actions = lifecycle(session, create, tested);
    if (actions) {
      scenarios.push({
        ...property(
          `stateful: ${create.id} lifecycle`,
          'stateful',
          'stateful',
          3,
          fc.tuple(actions, fc.nat()),
          ([value, seed]: [Action[], number]) => runSequence(session, value, ids, seed),
        ),
        requestsPerCase: 4,
      });
    }
  }
  if (session.enabled(listingAuditCheck.name)) {
    for (const collection of findCollections(api).filter(({ create, listing }) => ids.has(create.id) && ids.has(listing.id))) {
      scenarios.push(listingAudit(session, collection));
    }
  }
  return scenarios;
}

/**
 * A resource's whole life, each operation on it once, in the order that shows the most: made, read,
 * changed, read back, deleted, then read, changed and deleted again (each of which must now fail).
 */
function orderedLifecycle(session: Session, create: OperationModel, tested: OperationModel[]): Action[] {
  const { api } = session;
  const call = (operation: OperationModel, reuse?: number): Action => ({
    kind: 'call',
    operation,
    parts: baseParts(api, operation, session.credentialsFor(operation)).parts,
    ...(reuse === undefined ? {} : { reuse }),
  });
  const on = resourceOperations(session, create, tested);
  const reads = on.filter(({ method }) => method === 'get' || method === 'head');
  const writes = on.filter(({ method }) => method === 'put' || method === 'patch' || method === 'post');
  const deletes = on.filter(({ method }) => method === 'delete');
  // A create a link gives a body (an order for a pet) is made through that link, from its source,
  // so that what its body names exists.
  const [source] = linkSources(create, tested);
  const start: Action[] = source ? [call(source), { kind: 'follow', pick: 0, to: create }] : [call(create)];
  return [
    ...start,
    ...reads.map((operation) => call(operation, 0)),
    ...writes.map((operation) => call(operation, 0)),
    ...(writes.length ? reads : []).map((operation) => call(operation, 0)),
    ...deletes.map((operation) => call(operation, 0)),
    ...(deletes.length ? [...reads, ...writes, ...deletes] : []).map((operation) => call(operation, 0)),
  ];
}

/** The listing audit, after everything else: one fixed case. */
function listingAudit(session: Session, collection: Collection): Scenario {
  const name = `stateful: ${collection.listing.id} lists each ${collection.create.id}`;
  const scenario: Scenario = fixed(name, 'stateful', 'stateful', [collection], async (item) => {
    const outcome = await auditCollection(session, item, session.settings.profile.auditPages);
    if (!outcome.complete)
      scenario.note = `the listing was not read to its end (${outcome.pages} pages read; ${listingAuditCheck.name}.maxPages)`;
    return outcome.problems;
  });
  scenario.replayable = false;
  return scenario;
}
