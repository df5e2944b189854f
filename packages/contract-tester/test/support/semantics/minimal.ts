import { parseSpec } from '../../../src/spec/load.js';
import type { OpenApiDocument } from '../../../src/spec/openapi.js';

/** An OpenAPI 3.1 document of these paths and components (and top-level fields), read as the tester reads a file. */
export function minimalSpec(paths: object, components: object = {}, top: object = {}): OpenApiDocument {
  return parseSpec(JSON.stringify({ openapi: '3.1.0', info: { title: 'minimal', version: '1' }, ...top, paths, components }));
}

/** A POST that takes one JSON body, the component schema `name`, and answers 201 or 400. */
export function postOf(operationId: string, name: string): object {
  return {
    post: {
      operationId,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
      responses: { '201': { description: 'made' }, '400': { description: 'refused' } },
    },
  };
}
