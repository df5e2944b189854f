import type { RequestHandler } from 'express';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../../contract/contract.js';
import { patchValidator } from './validator-patches.js';

function validatorOptions(contract: Contract): OpenApiValidatorOpts {
  return {
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
    // ajv-formats' full mode, as documented by express-openapi-validator (its default is `fast`,
    // which checks shapes only): a date must be on the calendar, a date-time and a time carry an
    // offset and name a real instant, an email, uri or uuid follows its RFC.
    ajvFormats: { mode: 'full' },
    formats: {
      // By default int64 is not range-checked: 1e20 passes and 2^53 + 1 is silently rounded. Only
      // integers JSON and JavaScript carry exactly are int64 values here.
      int64: { type: 'number', validate: (value: number) => Number.isSafeInteger(value) },
    },
  };
}

/**
 * Steps of the validator's middleware that do nothing for this app but cost a promise hop on every
 * request: the security step only calls next (validateSecurity is off), and the path-params step
 * installs app.param handlers for app-level routes, of which there are none (routes.ts takes the
 * parsed path parameters from req.openapi).
 */
const IDLE_VALIDATOR_STEPS = new Set(['securityMiddleware', 'pathParamsMiddleware']);

/**
 * express-openapi-validator's steps as this service runs them: its routing step, which finds the
 * operation, then its request checks. Also the benchmark's floor (bench/floor-server.mjs), which
 * measures them on their own.
 */
export function openApiValidator(contract: Contract): [route: RequestHandler, check: RequestHandler] {
  patchValidator();
  const steps = OpenApiValidator.middleware(validatorOptions(contract)) as RequestHandler[];
  const [route, check, ...more] = steps.filter((step) => !IDLE_VALIDATOR_STEPS.has(step.name));
  if (!route || !check || more.length)
    throw new Error(`express-openapi-validator's steps have changed: ${steps.map((step) => step.name).join(', ')}`);
  return [route, check];
}
