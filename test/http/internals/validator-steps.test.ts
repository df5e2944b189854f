import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { routeAndCheckSteps, VALIDATOR_STEPS } from '../../../src/http/internals/validator-steps.js';

const named = (name: string): RequestHandler => Object.defineProperty(() => {}, 'name', { value: name });

describe("the validator's steps, picked by name", () => {
  it('the validator still names its steps pathParamsMiddleware, metadataMiddleware, securityMiddleware, requestMiddleware', () => {
    // The options that decide which steps there are, as openapi-validator.ts sets them.
    const steps = OpenApiValidator.middleware({
      apiSpec: structuredClone(loadContract().document) as never,
      validateRequests: true,
      validateResponses: false,
      validateSecurity: false,
      fileUploader: false,
    });
    expect(steps.map((step) => step.name)).toEqual([...VALIDATOR_STEPS]);
  });

  it('keeps the routing and request-checking steps', () => {
    const steps = VALIDATOR_STEPS.map(named);
    expect(routeAndCheckSteps(steps).map((step) => step.name)).toEqual(['metadataMiddleware', 'requestMiddleware']);
  });

  it('refuses steps it does not know, naming them', () => {
    expect(() => routeAndCheckSteps([...VALIDATOR_STEPS.map(named), named('newMiddleware')])).toThrow(/newMiddleware/);
  });
});
