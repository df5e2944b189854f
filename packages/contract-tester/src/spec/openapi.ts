// The tester reads OpenAPI documents through the module it shares with the pet store's server and
// scripts (packages/openapi-document). The build bundles that module into dist/cli.js, so the
// published package depends on no unpublished one.
export * from '../../../openapi-document/src/document.js';
export * from '../../../openapi-document/src/paths.js';
export * from '../../../openapi-document/src/pointer.js';
export { isJsonMediaType, mediaTypeEssence } from '../../../openapi-document/src/media-types.js';
