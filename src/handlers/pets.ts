import { ApiError } from '../http/api-error.js';
import { whenReady } from '../http/when-ready.js';
import type { Storage } from '../storage/storage.js';
import type { OperationHandler } from './operation-handler.js';
import { decodeCursor, encodeCursor, nextPageLink } from './paging.js';

export interface PetHandlerDeps {
  storage: Storage;
  /** The base path the API is served under, e.g. /v1, for Link and Location headers. */
  basePath: string;
}

export function listPets({ storage }: PetHandlerDeps): OperationHandler<'listPets'> {
  return (req, res) => {
    const { limit, status, cursor } = req.query;
    // The validator applies the spec's default, so limit is always set here.
    if (limit === undefined) throw new Error('listPets: limit default was not applied by the validator');
    const afterId = cursor === undefined ? undefined : decodeCursor(cursor);
    // One row more than asked tells whether a next page exists without a second query, so a
    // next link never leads to an empty page.
    return whenReady(storage.listPets({ limit: limit + 1, status, afterId }), (rows) => {
      const page = rows.slice(0, limit);
      if (rows.length > limit) {
        res.append('Link', nextPageLink(req.baseUrl + req.path, { limit, status }, encodeCursor(page[page.length - 1]!.id)));
      }
      res.json(page);
    });
  };
}

export function createPet({ storage, basePath }: PetHandlerDeps): OperationHandler<'createPet'> {
  return (req, res) =>
    whenReady(storage.createPet(req.body), (pet) => {
      res.status(201).location(`${basePath}/pets/${pet.id}`).json(pet);
    });
}

export function getPet({ storage }: PetHandlerDeps): OperationHandler<'getPet'> {
  return (req, res) => {
    const { petId } = req.params;
    return whenReady(storage.getPet(petId), (pet) => {
      if (!pet) throw new ApiError('pet_not_found', `No pet with id ${petId}.`);
      res.json(pet);
    });
  };
}
