import { listingAudit } from './checks/listing-audit.js';
import { buildRequest, emptyParts, setParameter, type TestRequest } from '../generate/requests.js';
import type { Resource } from './resources.js';
import type { Problem, Session, Step } from './session.js';
import { resolveRefAt, valueAtPointer } from '../spec/openapi.js';
import { isSuccessStatus, operationsAt, type ApiModel, type LinkModel, type OperationModel } from '../spec/model.js';
import { linksFrom } from './links.js';

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

export type AuditOutcome = { complete: boolean; pages: number; problems: Problem[] };

/**
 * Pages through the whole listing from its first page by its next links, and checks that every
 * resource the run created is in it as the run last saw it: once, as its last write answered it
 * (unchanged when nothing wrote it since), and not at all once deleted. Resources whose fate the run
 * cannot know (a write answered 5xx) are left out. Stops after `maxPages` (the outcome says so)
 * rather than read a listing without end.
 */
export async function auditCollection(session: Session, collection: Collection, maxPages: number): Promise<AuditOutcome> {
  const { api } = session;
  const { listing } = collection;
  let request: TestRequest = buildRequest(emptyParts(listing, api.basePath, session.credentialsFor(listing)));
  const first: Step = { request };
  const items: unknown[] = [];
  const visited = new Set<string>();
  const problems: Problem[] = [];
  const problem = (message: string, steps: Step[], status: number | undefined): Problem => ({
    check: listingAudit.name,
    label: listing.id,
    status,
    message,
    steps,
  });
  let pages = 0;
  for (;;) {
    if (pages >= maxPages) return { complete: false, pages, problems };
    visited.add(request.target);
    const sent = await session.send({ kind: 'positive', operation: listing, request, why: `page ${pages + 1} of the listing` });
    problems.push(...sent.problems);
    if (!sent.exchange) return { complete: false, pages, problems };
    pages += 1;
    const { response } = sent.exchange;
    if (response.status < 200 || response.status > 299) return { complete: false, pages, problems };
    if (Array.isArray(response.body)) items.push(...(response.body as unknown[]));
    const next = linksFrom(api, sent.exchange, session.linkContext).find(
      (step) => typeof step === 'string' || step.link === collection.next,
    );
    if (typeof next === 'string') {
      problems.push(problem(next, [first, { request, response }], response.status));
      return { complete: false, pages, problems };
    }
    if (!next) break;
    if (visited.has(next.request.target)) {
      problems.push(problem(`the next link leads back to ${next.request.target}`, [first, { request: next.request }], response.status));
      return { complete: false, pages, problems };
    }
    request = next.request;
  }
  const found = await listingAudit.check({
    listing: listing.id,
    create: collection.create.id,
    ...(collection.identity === undefined ? {} : { identity: collection.identity }),
    items,
    pages,
    ledger: session.ledger,
    goneNow: (resource) => goneNow(session, resource, problems),
  });
  problems.push(...found.map((message) => problem(message, [first], 200)));
  return { complete: true, pages, problems };
}

/** Whether a resource the ledger holds present answers 404 or 410 when read back now (with a GET on its own path). */
async function goneNow(session: Session, resource: Resource, problems: Problem[]): Promise<boolean> {
  const read = session.api.operations.find(({ method, path }) => method === 'get' && path === resource.template);
  if (!read) return false;
  let parts = emptyParts(read, session.api.basePath, session.credentialsFor(read));
  for (const parameter of read.parameters)
    if (parameter.in === 'path' && resource.parameters[parameter.name] !== undefined)
      parts = setParameter(parts, parameter, resource.parameters[parameter.name]);
  const sent = await session.send({
    kind: 'positive',
    operation: read,
    request: buildRequest(parts),
    why: `${resource.path} is not listed: is it there?`,
  });
  // The read is held to the spec like any other request.
  problems.push(...sent.problems);
  const status = sent.exchange?.response.status;
  return status === 404 || status === 410;
}
