import type { Pet, PetStore } from '../storage/pets/pets.js';
import { operationPath } from './links.js';
import type { OperationHandler, OperationResult } from './operation.js';
import { decodeCursor, encodeCursor, nextPageLink } from './paging.js';

/** listPets: a page of pets in id order, with a link to the next page exactly when there is one. */
export function listPets({ storage, basePath }: { storage: PetStore; basePath: string }): OperationHandler<'listPets'> {
  const path = operationPath(basePath, 'listPets');
  // Without async: on a backend that answers at once, so does the handler.
  return ({ query: { limit, status, cursor } }) => {
    const afterId = cursor === undefined ? undefined : decodeCursor(cursor);
    // One row more than asked tells whether a next page exists without a second query, so a
    // next link never leads to an empty page.
    const rows = storage.listPets({ limit: limit + 1, status, afterId });
    const page = (found: Pet[]): OperationResult<'listPets'> => {
      if (found.length <= limit) return { status: 200, body: found };
      found.length = limit;
      return { status: 200, body: found, headers: { Link: nextPageLink(path, { limit, status }, encodeCursor(found[limit - 1]!.id)) } };
    };
    return rows instanceof Promise ? rows.then(page) : page(rows);
  };
}
