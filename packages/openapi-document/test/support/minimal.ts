import type { OpenApiDocument } from '../../src/document.js';

/** The smallest document there is, with what a test adds. */
export const minimal = (extra: Partial<OpenApiDocument> = {}): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {},
  components: { schemas: {} },
  ...extra,
});
