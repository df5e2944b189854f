import type { PetStore } from '../storage/pets.js';
import { operationPath } from './links.js';
import type { OperationHandler } from './operation.js';
import { decodeCursor, encodeCursor, nextPageLink } from './paging.js';

/** listPets: a page of pets in id order, with a link to the next page exactly when there is one. */
export function listPets({ storage, basePath }: { storage: PetStore; basePath: string }): OperationHandler<'listPets'> {
  const path = operationPath(basePath, 'listPets');
  return async ({ query: { limit, status, cursor } }) => {
    const afterId = cursor === undefined ? undefined : decodeCursor(cursor);
    // One row more than asked tells whether a next page exists without a second query, so a
    // next link never leads to an empty page.
    const rows = await storage.listPets({ limit: limit + 1, status, afterId });
    if (rows.length <= limit) return { status: 200, body: rows };
    rows.length = limit;
    return { status: 200, body: rows, headers: { Link: nextPageLink(path, { limit, status }, encodeCursor(rows[limit - 1]!.id)) } };
  };
}
