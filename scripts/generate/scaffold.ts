// What `npm run generate` writes outside generated/: the handler registry (src/handlers/index.ts,
// rewritten from the spec every time) and, for an operation that has no handler yet, a handler that
// answers 501 with its two test files (written once, never overwritten: orval's 'smart' mode).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { listOperations, type OpenApiDocument, type OperationEntry } from '../../src/contract/spec.js';
import { crudOperations } from './resources.js';

/** A file to write, by its path from the project root. */
export interface FileText {
  path: string;
  text: string;
}

/** updatePet → update-pet, listStoreOrders → list-store-orders, getPetByID → get-pet-by-id. */
export function kebabCase(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase();
}

/** Where an operation's handler lives: the registry imports it from there under the operationId. */
export function handlerPath(operationId: string): string {
  return `src/handlers/${kebabCase(operationId)}.ts`;
}

/**
 * src/handlers/index.ts: every operation of the spec mapped to its handler, so that a new operation
 * needs no registration by hand. Each handler module exports a function named after the operationId
 * that makes the handler from HandlerDeps (taking only the part it uses).
 */
export function handlersIndexModule(document: OpenApiDocument, header: string): string {
  const ids = listOperations(document).map(({ operation }) => operation.operationId);
  const generated = new Set(crudOperations(document).map(({ entry }) => entry.operation.operationId));
  const imports = ids.map((id) => `import { ${id} } from '${generated.has(id) ? '../../generated/handlers/' : './'}${kebabCase(id)}.js';`);
  const entries = ids.map((id) => `    ${id}: ${id}(deps),`);
  return `${header}// Each operation's handler is src/handlers/<operationId in kebab case>.ts, exporting a function named
// after the operationId that makes the handler from HandlerDeps; \`npm run generate\` writes one that
// answers 501 for an operation that has none. An operation marked with a CRUD x-storage has its
// handler generated whole, in generated/handlers/.
import { handlerDeps, type HandlerOptions } from './deps.js';
import type { OperationHandlers } from './operation.js';
${imports.join('\n')}

export type { HandlerDeps, HandlerOptions } from './deps.js';

/** Every operation's handler, keyed by operationId. */
export function createHandlers(options: HandlerOptions): OperationHandlers {
  const deps = handlerDeps(options);
  return {
${entries.join('\n')}
  };
}
`;
}

function handlerStub({ method, path, operation: { operationId: id } }: OperationEntry): string {
  return `import { apiError } from '../errors/api-error.js';
import type { HandlerDeps } from './deps.js';
import { operationName } from './links.js';
import type { OperationHandler } from './operation.js';

/**
 * ${id} (${method.toUpperCase()} ${path}), as \`npm run generate\` scaffolded it: answers 501 not_implemented
 * until it is written. Take what it needs from HandlerDeps, and return one of the responses
 * openapi.yaml documents for it (OperationResult<'${id}'>).
 */
export function ${id}({ basePath }: Pick<HandlerDeps, 'basePath'>): OperationHandler<'${id}'> {
  const operation = operationName(basePath, '${id}');
  return () => Promise.reject(apiError('not_implemented', { operation }));
}
`;
}

function handlerTest({ operation: { operationId: id } }: OperationEntry): string {
  return `import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../generated/contract.js';
import { ${id} } from '../../src/handlers/${kebabCase(id)}.js';
import { operationRequest } from '../support/operation-request.js';

// Scaffolded by \`npm run generate\` with the handler: replace it with the handler's own tests.
describe('${id} handler', () => {
  it('is not implemented yet: raises not_implemented, naming the operation', async () => {
    const { method, path } = OPERATIONS.${id};
    await expect(${id}({ basePath: '/v1' })(operationRequest({}))).rejects.toMatchObject({
      code: 'not_implemented',
      status: 501,
      message: \`\${method} /v1\${path} is not implemented yet.\`,
    });
  });
});
`;
}

function httpTest({ operation: { operationId: id } }: OperationEntry): string {
  return `import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { backends } from '../../support/backends.js';
import { exampleRequest, sendExampleRequest } from '../../support/example-request.js';
import { createTestApi } from '../../support/test-app.js';

// Scaffolded by \`npm run generate\` with the handler: replace it with the operation's own tests, sent
// through t.api, which holds every response to openapi.yaml. 501 is not among the responses the spec
// documents for the operation, so this one request goes without that check.
describe.each(backends)('${id} [$name]', (backend) => {
  it('answers its example request with 501 not_implemented, naming the operation, in the error format', async () => {
    const t = await createTestApi({ backend });
    const example = exampleRequest('${id}');
    const res = await sendExampleRequest(t.origin, example, t.credentials);
    expect(res.status).toBe(501);
    const message = \`\${example.operation} is not implemented yet.\`;
    expect(res.body).toEqual(JSON.parse(loadContract().errorFormat.render({ code: 'not_implemented', status: 501, message })));
  });
});
`;
}

/**
 * For each operation without a handler module: the handler, which answers 501 not_implemented, its
 * unit test and its HTTP test, where test/layout.test.ts and the test layout expect them.
 */
export function scaffoldFiles(document: OpenApiDocument, root: string): FileText[] {
  const generated = new Set(crudOperations(document).map(({ entry }) => entry.operation.operationId));
  return listOperations(document)
    .filter(({ operation }) => !generated.has(operation.operationId) && !existsSync(join(root, handlerPath(operation.operationId))))
    .flatMap((entry) => {
      const name = kebabCase(entry.operation.operationId);
      return [
        { path: handlerPath(entry.operation.operationId), text: handlerStub(entry) },
        { path: `test/handlers/${name}.test.ts`, text: handlerTest(entry) },
        { path: `test/http/app/${name}.test.ts`, text: httpTest(entry) },
      ];
    });
}
