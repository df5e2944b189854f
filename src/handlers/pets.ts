import type { Contract } from '../contract/contract.js';
import { ApiError } from '../http/api-error.js';
import { jsonResponder } from '../http/json-response.js';
import { whenReady } from '../http/when-ready.js';
import type { Storage } from '../storage/storage.js';
import type { OperationHandler } from './operation-handler.js';
import { decodeCursor, encodeCursor, nextPageLink } from './paging.js';

export interface PetHandlerDeps {
  storage: Storage;
  /** The base path the API is served under, e.g. /v1, for Link and Location headers. */
  basePath: string;
  /** For the response schemas the bodies are serialised with. */
  contract: Contract;
}

export function listPets({ storage, contract }: PetHandlerDeps): OperationHandler<'listPets'> {
  const send = jsonResponder(contract, 'listPets', 200);
  return (req, res) => {
    const { limit, status, cursor } = req.query;
    // The validator applies the spec's default, so limit is always set here.
    if (limit === undefined) throw new Error('listPets: limit default was not applied by the validator');
    const afterId = cursor === undefined ? undefined : decodeCursor(cursor);
    // One row more than asked tells whether a next page exists without a second query, so a
    // next link never leads to an empty page.
    return whenReady(storage.listPets({ limit: limit + 1, status, afterId }), (rows) => {
      if (rows.length > limit) {
        rows.length = limit;
        res.append('Link', nextPageLink(req.baseUrl + req.path, { limit, status }, encodeCursor(rows[limit - 1]!.id)));
      }
      send(res, rows);
    });
  };
}

export function createPet({ storage, basePath, contract }: PetHandlerDeps): OperationHandler<'createPet'> {
  const send = jsonResponder(contract, 'createPet', 201);
  return (req, res) =>
    whenReady(storage.createPet(req.body), (pet) => {
      res.setHeader('Location', `${basePath}/pets/${pet.id}`);
      send(res, pet);
    });
}

export function getPet({ storage, contract }: PetHandlerDeps): OperationHandler<'getPet'> {
  const send = jsonResponder(contract, 'getPet', 200);
  return (req, res) => {
    const { petId } = req.params;
    return whenReady(storage.getPet(petId), (pet) => {
      if (!pet) throw new ApiError('pet_not_found', `No pet with id ${petId}.`);
      send(res, pet);
    });
  };
}
