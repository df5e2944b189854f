import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { validateRequests } from '../../../src/http/middleware/request-validation.js';

describe('request validation', () => {
  it("runs the validator's routing, the strict parameter rules, its checks, then the safe-integer rule and the required body", () => {
    const names = validateRequests(loadContract()).map((step) => step.name);
    expect(names).toEqual(['metadataMiddleware', 'beforeValidation', 'requestMiddleware', 'afterValidation', 'requireBody']);
  });

  it("leaves out the validator's steps that do nothing for this app", () => {
    const names = validateRequests(loadContract()).map((step) => step.name);
    expect(names).not.toContain('securityMiddleware');
    expect(names).not.toContain('pathParamsMiddleware');
  });
});
