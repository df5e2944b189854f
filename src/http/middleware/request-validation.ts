import contentType from 'content-type';
import express, { type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Contract } from '../../contract/contract.js';
import { apiError } from '../../errors/api-error.js';
import { patchValidator } from './validator-patches.js';

/**
 * JSON bodies up to the spec's `x-max-request-body-bytes` (larger ones become 413), in UTF-8 only
 * (RFC 8259): body-parser would otherwise decode any charset iconv knows.
 */
export function parseJsonBodies(contract: Contract): RequestHandler[] {
  const requireUtf8: RequestHandler = (req, _res, next) => {
    const header = req.headers['content-type'];
    if (header) {
      const charset = (() => {
        try {
          return contentType.parse(header).parameters['charset'];
        } catch {
          return undefined; // a malformed header is the validator's to reject, as 415
        }
      })();
      if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
        throw apiError('unsupported_media_type', { reason: 'charset' });
      }
    }
    next();
  };
  return [requireUtf8, express.json({ limit: contract.maxRequestBodyBytes, strict: true })];
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
 * and methods. Mounted at the app root, because it works out the base path from `servers`.
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
  return steps.filter((step) => !IDLE_VALIDATOR_STEPS.has(step.name));
}
