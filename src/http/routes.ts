import { Router, type RequestHandler } from 'express';
import type { Contract } from '../contract/contract.js';
import type { OperationHandlers, OperationId } from '../handlers/operation-handler.js';

/** /pets/{petId} → /pets/:petId */
function toExpressPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * Routes come from the spec's paths, so a path is written once (in openapi.yaml). Path parameters
 * are handed over as the validator parsed them (petId as a number, as the generated types say),
 * not as the raw strings Express's router puts in req.params.
 */
export function operationRouter(contract: Contract, handlers: OperationHandlers): Router {
  const router = Router();
  for (const { method, path, operation } of contract.operations) {
    const handler = handlers[operation.operationId as OperationId] as unknown as RequestHandler | undefined;
    if (!handler) throw new Error(`openapi.yaml operation ${operation.operationId} has no handler`);
    router[method](toExpressPath(path), (req, res, next) => {
      const parsed = (req as { openapi?: { pathParams?: Record<string, unknown> } }).openapi?.pathParams;
      if (parsed) Object.assign(req.params, parsed);
      return handler(req, res, next);
    });
  }
  return router;
}
