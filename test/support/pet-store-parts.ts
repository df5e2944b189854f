// What the workspace packages' tests take of the pet store beyond this folder's helpers: its own
// reading of the spec, and the parts of its server a test plants faults in. Each package's
// test/support/pet-store.ts imports them from here, so that no package reaches into src/.
export { contractFromDocument } from '../../src/contract/contract.js';
export { parseSpec, readSpecText } from '../../src/contract/spec.js';
export { apiError } from '../../src/errors/api-error.js';
export { createHandlers } from '../../src/handlers/index.js';
export type { OperationHandlers, OperationResult } from '../../src/handlers/operation.js';
