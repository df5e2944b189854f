// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { operations, paths } from './openapi.js';

/** GET overloads for the deprecated GET operations, struck through in editors. */
export interface DeprecatedGET {
  /**
   * getPet: Get an animal (deprecated).
   * @deprecated Since 2026-11-21T00:00:00Z: use GET /v1/pets with the status filter (`/v1/pets`) instead. Every
   * response carries `Deprecation`, `Sunset` and a successor `Link`; from its sunset instant,
   * 2030-12-05T00:00:00Z, it answers `410`.
   */
  <Init extends MaybeOptionalInit<paths['/pets/{petId}'], 'get'>>(
    url: '/pets/{petId}',
    init: Init & { [key: string]: unknown },
  ): Promise<FetchResponse<paths['/pets/{petId}']['get'], Init, `${string}/${string}`>>;
}

/**
 * The openapi-fetch client for this API, with one extra, deprecated overload per deprecated
 * operation: openapi-fetch takes the path as a string argument, which cannot carry the operation's
 * @deprecated by itself. Still assignable to Client<paths>.
 */
export type DeprecationMarkedClient = Omit<Client<paths>, 'GET'> & {
  GET: DeprecatedGET & Client<paths>['GET'];
};

/**
 * getPet: Get an animal (deprecated).
 * @deprecated Since 2026-11-21T00:00:00Z: use GET /v1/pets with the status filter (`/v1/pets`) instead. Every
 * response carries `Deprecation`, `Sunset` and a successor `Link`; from its sunset instant,
 * 2030-12-05T00:00:00Z, it answers `410`.
 */
export function getPet(
  client: DeprecationMarkedClient,
  petId: operations['getPet']['parameters']['path']['petId'],
  init: { signal?: AbortSignal } = {},
) {
  return client.GET('/pets/{petId}', { signal: init.signal, params: { path: { petId: petId } } });
}
