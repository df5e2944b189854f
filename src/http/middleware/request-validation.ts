import type { RequestHandler } from 'express';
import type * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../../contract/contract.js';
import { resolveRef } from '../../contract/spec.js';
import { apiError } from '../../errors/api-error.js';
import { strictParameters } from './strict-parameters.js';
import { openApiValidator } from './openapi-validator.js';

/** What the validator's steps leave on a request (their first parameter's type). */
type OpenApiRequestMetadata = NonNullable<Parameters<ReturnType<typeof OpenApiValidator.middleware>[number]>[0]['openapi']>;

// Express's own way to type what middleware adds to its Request (@types/express-serve-static-core
// merges the global Express.Request into it), with no import of a package the server does not list.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /**
       * What the validator's routing step leaves on a request for an operation of the spec: the
       * operation, and its path parameters (once checked, as the schema types them: petId a number).
       */
      openapi?: OpenApiRequestMetadata;
    }
  }
}

/**
 * Validates every request against openapi.yaml: parameters, bodies, content types, unknown routes
 * and methods, with the strict parameter rules around its checks (see strict-parameters.ts).
 * Mounted at the app root, because it works out the base path from `servers`.
 */
export function validateRequests(contract: Contract): RequestHandler[] {
  const [route, check] = openApiValidator(contract);
  const strict = strictParameters(contract);
  // Its routing step finds the operation; the strict rules need it, and must run before its checks.
  return [route, strict.beforeValidation, check, strict.afterValidation, requireBodies(contract)];
}

/**
 * A body the spec requires (`requestBody.required`) must be there. The validator requires one only
 * when its schema lists required properties, so a merge patch (updatePet's PetPatch has none) would
 * otherwise reach its handler without a body. After the validator's checks, so that a missing or
 * unknown media type is still its 415.
 */
function requireBodies({ document, operations }: Contract): RequestHandler {
  const required = new Set(
    operations
      .filter(({ operation }) => resolveRef(document, (operation.requestBody ?? {}) as { required?: boolean }).required === true)
      .map(({ operation }) => operation.operationId),
  );
  return function requireBody(req, _res, next) {
    const operationId = req.openapi?.schema?.operationId;
    if (req.body === undefined && operationId !== undefined && required.has(operationId)) {
      throw apiError('validation_failed', { problems: ['body is required'] });
    }
    next();
  };
}
