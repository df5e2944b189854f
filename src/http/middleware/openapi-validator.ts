import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../../contract/contract.js';
import { deferValidatorMetaSchema, memoiseValidatorRouteRegExps, routeAndCheckSteps } from '../internals/index.js';

type OpenApiValidatorOpts = Parameters<typeof OpenApiValidator.middleware>[0];

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
    formats: {
      // By default int64 is not range-checked: 1e20 passes and 2^53 + 1 is silently rounded. Only
      // integers JSON and JavaScript carry exactly are int64 values here.
      int64: { type: 'number', validate: (value: number) => Number.isSafeInteger(value) },
    },
  };
}

/**
 * express-openapi-validator's steps as this service runs them: its routing step, which finds the
 * operation, then its request checks. Also the benchmark's floor (bench/floor-server.mjs), which
 * measures them on their own.
 */
export function openApiValidator(contract: Contract): [route: RequestHandler, check: RequestHandler] {
  memoiseValidatorRouteRegExps();
  deferValidatorMetaSchema();
  return routeAndCheckSteps(OpenApiValidator.middleware(validatorOptions(contract)) as RequestHandler[]);
}
