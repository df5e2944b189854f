import type { RequestHandler } from 'express';

/**
 * Relies on: express-openapi-validator's middleware() returning its steps as functions named after
 * what they do (openapi.validator.js names them "to allow traces to be more useful"), and, with
 * this service's options (no file uploader, no response validation, no operation handlers),
 * exactly these in this order: pathParamsMiddleware, metadataMiddleware, securityMiddleware,
 * requestMiddleware. The validator has no option to leave any of them out.
 *
 * Why: two of them do nothing for this app but cost a promise hop on every request: the security
 * step only calls next (validateSecurity is off), and the path-params step installs app.param
 * handlers for app-level routes, of which there are none (routes.ts takes the parsed path
 * parameters from req.openapi).
 */
export const VALIDATOR_STEPS = ['pathParamsMiddleware', 'metadataMiddleware', 'securityMiddleware', 'requestMiddleware'] as const;

const IDLE_STEPS = new Set(['securityMiddleware', 'pathParamsMiddleware']);

/** The validator's routing step, which finds the operation, and its request checks; throws when its steps are not the ones above. */
export function routeAndCheckSteps(steps: RequestHandler[]): [route: RequestHandler, check: RequestHandler] {
  const names = steps.map((step) => step.name);
  if (names.join() !== VALIDATOR_STEPS.join())
    throw new Error(`express-openapi-validator's steps have changed: ${names.join(', ')} (src/http/internals/validator-steps.ts)`);
  const [route, check] = steps.filter((step) => !IDLE_STEPS.has(step.name));
  return [route!, check!];
}
