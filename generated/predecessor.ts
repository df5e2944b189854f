// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
// The previous major version's types (docs/versioning.md#serving-two-major-versions).
export type { operations as PreviousOperations, paths as PreviousPaths } from './openapi.js';
