import type { Pet, PetStatus, PetStore } from '../storage/pets.js';
import { operationPath } from './links.js';
import type { OperationHandler, OperationResult } from './operation.js';
import { decodeCursor, encodeCursor, nextPageLink } from './paging.js';

/** listPets: a page of pets in id order, with a link to the next page exactly when there is one. */
export function listPets({ storage, basePath }: { storage: PetStore; basePath: string }): OperationHandler<'listPets'> {
  const path = operationPath(basePath, 'listPets');
  const page = (rows: Pet[], limit: number, status: PetStatus | undefined): OperationResult<'listPets'> => {
    if (rows.length <= limit) return { status: 200, body: rows };
    rows.length = limit;
    return { status: 200, body: rows, headers: { Link: nextPageLink(path, { limit, status }, encodeCursor(rows[limit - 1]!.id)) } };
  };
  // Without async: on a backend that answers at once, so does the handler.
  return ({ query: { limit, status, cursor } }) => {
    const afterId = cursor === undefined ? undefined : decodeCursor(cursor);
    // One row more than asked tells whether a next page exists without a second query, so a
    // next link never leads to an empty page.
    const rows = storage.listPets({ limit: limit + 1, status, afterId });
    return rows instanceof Promise ? rows.then((found) => page(found, limit, status)) : page(rows, limit, status);
  };
}
