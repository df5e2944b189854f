import { resolveRefAt, valueAtPointer } from './openapi.js';
import { jsonEqual } from './json-text.js';
import { linksFrom } from './links.js';
import { buildRequest, type TestRequest } from './requests.js';
import { CaseFailure, type Session, type Step } from './session.js';
import { isSuccessStatus, operationsAt, type ApiModel, type LinkModel, type OperationModel } from './spec-model.js';

/** A create and the listing of what it creates: a POST answering schema S, a GET on its path answering S[]. */
export interface Collection {
  create: OperationModel;
  listing: OperationModel;
  /** The JSON pointer of what identifies an item, from a link of the create (`$response.body#/id`). */
  identity?: string;
  /** The listing's link to its next page. */
  next: LinkModel;
}

/** The pointer of the item schema of an array schema at `pointer`, after `$ref`s. */
function itemSchemaPointer(api: ApiModel, pointer: string): string | undefined {
  const schema = valueAtPointer(api.document, pointer) as { type?: unknown; items?: unknown } | undefined;
  if (!schema || schema.type !== 'array' || schema.items === undefined) return undefined;
  return resolveRefAt(api.document, schema.items, `${pointer}/items`).pointer;
}

/** The collections the spec describes, found from the schemas and links alone. */
export function findCollections(api: ApiModel): Collection[] {
  const collections: Collection[] = [];
  for (const create of api.operations.filter(({ method }) => method === 'post')) {
    const created = create.responses.find(({ status, schemaPointer }) => isSuccessStatus(status) && schemaPointer);
    if (!created) continue;
    for (const listing of operationsAt(api, create.path).filter(({ method }) => method === 'get')) {
      const page = listing.responses.find(
        ({ status, schemaPointer }) =>
          isSuccessStatus(status) && schemaPointer && itemSchemaPointer(api, schemaPointer) === created.schemaPointer,
      );
      const next = page?.links.find((link) => link.header && link.targetOperationId === listing.id);
      if (!page || !next || listing.parameters.some((parameter) => parameter.required)) continue;
      const identity = created.links
        .flatMap((link) => Object.values(link.parameters))
        .map((expression) => (typeof expression === 'string' ? /^\$response\.body#(\/.*)$/.exec(expression)?.[1] : undefined))
        .find((pointer) => pointer !== undefined);
      collections.push(identity === undefined ? { create, listing, next } : { create, listing, identity, next });
    }
  }
  return collections;
}

export type AuditOutcome = { complete: true; pages: number } | { complete: false; pages: number };

/**
 * Pages through the whole listing from its first page by its next links, and checks that every item
 * created during the run appears in it exactly once, unchanged. Stops after `maxPages` (the outcome
 * says so) rather than read a listing without end.
 */
export async function auditCollection(session: Session, collection: Collection, maxPages: number): Promise<AuditOutcome> {
  const { api } = session;
  const { listing } = collection;
  let request: TestRequest = buildRequest({
    method: 'GET',
    path: api.basePath + listing.path,
    pathParameters: {},
    query: [],
    headers: [],
    credentials: { kind: 'key', schemes: listing.credentials },
  });
  const first: Step = { request };
  const items: unknown[] = [];
  const visited = new Set<string>();
  let pages = 0;
  for (;;) {
    if (pages >= maxPages) return { complete: false, pages };
    visited.add(request.target);
    const exchange = await session.send({ kind: 'positive', operation: listing, request }, [], `page ${pages + 1} of the listing`);
    pages += 1;
    if (Array.isArray(exchange.response.body)) items.push(...(exchange.response.body as unknown[]));
    const next = linksFrom(api, exchange, session.client.origin).find((step) => typeof step === 'string' || step.link === collection.next);
    if (typeof next === 'string') throw new CaseFailure([next], [first, { request, response: exchange.response }]);
    if (!next) break;
    if (visited.has(next.request.target))
      throw new CaseFailure([`the next link leads back to ${next.request.target}`], [first, { request: next.request }]);
    request = next.request;
  }
  const identify = (item: unknown) => JSON.stringify(collection.identity === undefined ? item : valueAtPointer(item, collection.identity));
  const byIdentity = new Map<string, unknown[]>();
  for (const item of items) {
    const key = identify(item);
    const same = byIdentity.get(key);
    if (same) same.push(item);
    else byIdentity.set(key, [item]);
  }
  const problems: string[] = [];
  const steps: Step[] = [];
  for (const created of session.created.filter(({ operationId }) => operationId === collection.create.id)) {
    const matches = byIdentity.get(identify(created.body)) ?? [];
    const wrong =
      matches.length !== 1
        ? `${JSON.stringify(created.body)}, created by ${collection.create.id}, appears ${matches.length} times in ${listing.id} (${pages} pages, ${items.length} items)`
        : !jsonEqual(matches[0], created.body)
          ? `${collection.create.id} answered ${JSON.stringify(created.body)}, but ${listing.id} lists ${JSON.stringify(matches[0])}`
          : undefined;
    if (wrong) {
      problems.push(wrong);
      if (steps.length < 2) steps.push({ request: created.request });
    }
  }
  if (problems.length) throw new CaseFailure(problems, [...steps, first]);
  return { complete: true, pages };
}
