// The tester reads OpenAPI documents through the module it shares with the pet store's server and
// scripts (packages/openapi-document). The build bundles that module into dist/cli.js, so the
// published package depends on no unpublished one.
export * from 'openapi-document/document';
export * from 'openapi-document/paths';
export * from 'openapi-document/pointer';
export { isJsonMediaType, mediaTypeEssence } from 'openapi-document/media-types';
