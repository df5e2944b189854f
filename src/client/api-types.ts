import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { components, paths } from '../../generated/openapi.js';

export type { components, operations, paths } from '../../generated/openapi.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
/** The one Error object every 4xx and 5xx response carries. */
export type ErrorBody = components['schemas']['Error'];

type GetPetPath = '/pets/{petId}';

interface DeprecatedGetPet {
  /**
   * getPet: returns one animal.
   * @deprecated Use `GET /pets` with the `status` filter instead. Every response carries `Deprecation`,
   * `Sunset` and a successor `Link`; from the sunset instant (2030-12-05T00:00:00Z) on it answers `410`.
   */
  <Init extends MaybeOptionalInit<paths[GetPetPath], 'get'>>(
    url: GetPetPath,
    init: Init & { [key: string]: unknown },
  ): Promise<FetchResponse<paths[GetPetPath]['get'], Init, `${string}/${string}`>>;
}

/**
 * The openapi-fetch client for this API. Its GET carries one extra, deprecated overload for the
 * deprecated path, so that editors strike through `client.GET('/pets/{petId}', …)` too: openapi-fetch
 * takes the path as a string argument, which cannot carry the operation's `@deprecated` by itself.
 * It is still assignable to `Client<paths>`.
 */
export type PetStoreClient = Omit<Client<paths>, 'GET'> & { GET: DeprecatedGetPet & Client<paths>['GET'] };
