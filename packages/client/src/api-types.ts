import type { DeprecationMarkedClient } from '../../../generated/client-deprecations.js';

export type { components, operations, paths } from '../../../generated/openapi.js';
/** The previous major version's paths while it is served beside this one (this version's own otherwise). */
export type { PreviousPaths } from '../../../generated/predecessor.js';

/**
 * The openapi-fetch client for this API: its own Client<paths>, whose methods carry one extra,
 * deprecated overload per deprecated operation (generated from openapi.yaml's x-deprecation), so
 * that editors strike through a deprecated operation's calls as well.
 */
export type PetStoreClient = DeprecationMarkedClient;
