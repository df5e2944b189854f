import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiRequestMetadata } from 'express-openapi-validator/dist/framework/types.js';
import type { Contract } from '../../contract/contract.js';
import { resolveRef } from '../../contract/spec.js';
import { apiError } from '../../errors/api-error.js';
import { strictParameters } from './strict-parameters.js';
import { patchValidator } from './validator-patches.js';

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
 * Steps of the validator's middleware that do nothing for this app but cost a promise hop on every
 * request: the security step only calls next (validateSecurity is off), and the path-params step
 * installs app.param handlers for app-level routes, of which there are none (routes.ts takes the
 * parsed path parameters from req.openapi).
 */
const IDLE_VALIDATOR_STEPS = new Set(['securityMiddleware', 'pathParamsMiddleware']);

/**
 * Validates every request against openapi.yaml: parameters, bodies, content types, unknown routes
 * and methods, with the strict parameter rules around its checks (see strict-parameters.ts).
 * Mounted at the app root, because it works out the base path from `servers`.
 */
export function validateRequests(contract: Contract): RequestHandler[] {
  patchValidator();
  const steps = OpenApiValidator.middleware({
    // The validator rewrites the document it is given while resolving $refs.
    apiSpec: structuredClone(contract.document) as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
    validateResponses: false,
    // Checking openapi.yaml against the OpenAPI 3.1 meta-schema would lengthen every start; the spec
    // only changes with the code, so test/contract/spec.test.ts checks it instead.
    validateApiSpec: false,
    // Only JSON bodies exist here: no multipart middleware (and its per-request hop) is needed.
    fileUploader: false,
    // $refs resolved once at start-up: parameters are otherwise dereferenced through ajv on
    // every request (parsers/util.js normalizeParameter).
    $refParser: { mode: 'dereference' },
    // Authentication is ours and runs first (see authenticate.ts).
    validateSecurity: false,
    validateFormats: true,
    formats: {
      // By default int64 is not range-checked: 1e20 passes and 2^53 + 1 is silently rounded. Only
      // integers JSON and JavaScript carry exactly are int64 values here.
      int64: { type: 'number', validate: (value: number) => Number.isSafeInteger(value) },
    },
  }) as RequestHandler[];
  const [route, ...checks] = steps.filter((step) => !IDLE_VALIDATOR_STEPS.has(step.name));
  const strict = strictParameters(contract);
  // Its routing step finds the operation; the strict rules need it, and must run before its checks.
  return [route!, strict.beforeValidation, ...checks, strict.afterValidation, requireBodies(contract)];
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
