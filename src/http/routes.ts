import { exactRouter } from './exact-router.js';
import type { Contract } from '../contract/contract.js';
import type { OperationHandlers, OperationId, RecordingOperationHandler } from '../handlers/operation.js';
import { operationRoute, type OutcomeCheck } from './operation-route.js';

/** /pets/{petId} → /pets/:petId */
function toExpressPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/** Routes come from the spec's paths, so a path is written once (in openapi.yaml). */
export function operationRouter(contract: Contract, handlers: OperationHandlers, check?: OutcomeCheck) {
  const router = exactRouter();
  for (const entry of contract.operations) {
    const handler = handlers[entry.operation.operationId as OperationId] as unknown as RecordingOperationHandler<OperationId> | undefined;
    if (!handler) throw new Error(`openapi.yaml operation ${entry.operation.operationId} has no handler`);
    router[entry.method](toExpressPath(entry.path), operationRoute(contract, entry, handler, check));
  }
  return router;
}
