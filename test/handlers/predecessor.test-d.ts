// Compile-time tests of the previous major version's adapters: `npm test` type-checks this file (tsc)
// and vitest never runs it. Each @ts-expect-error must meet an error.
import type { operations } from '../../generated/openapi.js';
import type { PredecessorAdapters, VersionRequest } from '../../src/handlers/predecessor.js';

/** The rename of docs/versioning.md's worked example, on the current types: listPets takes `state`, not `status`. */
type Renamed<Query> = Omit<Query, 'status'> & { state?: Query extends { status?: infer Status } ? Status : never };
type OtherVersion = Omit<operations, 'listPets'> & {
  listPets: Omit<operations['listPets'], 'parameters'> & {
    parameters: Omit<operations['listPets']['parameters'], 'query'> & {
      query?: Renamed<NonNullable<operations['listPets']['parameters']['query']>>;
    };
  };
};

// Where the versions agree, nothing is asked for: this version's handlers serve both.
export const same: PredecessorAdapters<operations> = {};

// @ts-expect-error listPets differs between the versions: tsc names it until it has an adapter
export const unadapted: PredecessorAdapters<OtherVersion> = {};

export const adapted: PredecessorAdapters<OtherVersion> = {
  listPets:
    ({ listPets }) =>
    ({ query: { state, ...query }, ...request }) =>
      listPets({ ...request, query: { ...query, ...(state ? { status: state } : {}) } }),
};

// The other version's request is typed by its own parameters: `state`, defaults filled in.
export const stateIsThere = (request: VersionRequest<OtherVersion, 'listPets'>) => [request.query.state, request.query.limit.toFixed()];
// @ts-expect-error the other version has no `status`
export const statusIsNot: keyof VersionRequest<OtherVersion, 'listPets'>['query'] = 'status';

// An operation the other version has and this one does not needs an adapter too.
type WithExtra = operations & { listPetPhotos: operations['getPet'] };
// @ts-expect-error listPetPhotos has no handler in this version
export const missingExtra: PredecessorAdapters<WithExtra> = {};
