import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { openApiValidator } from '../../../src/http/middleware/openapi-validator.js';
import { getRequest as request, outcome } from '../../support/validator-request.js';

describe("express-openapi-validator's steps as the service runs them", () => {
  const contract = loadContract();
  const [route, check] = openApiValidator(contract);
  const base = contract.basePath;

  it('routes a request to its operation by the spec, with its path parameters', async () => {
    const req = request(`${base}/pets/7`);
    expect(await outcome(route, req)).toBeUndefined();
    expect(req.openapi?.schema?.operationId).toBe('getPet');
    expect(req.openapi?.pathParams).toEqual({ petId: '7' });
  });

  it('answers a path the spec does not have with 404 and a method it does not allow with 405', async () => {
    expect(await outcome(route, request(`${base}/owls`))).toMatchObject({ status: 404 });
    const put = { ...request(`${base}/pets/7`), method: 'PUT' } as Request;
    expect(await outcome(route, put)).toMatchObject({ status: 405 });
  });

  it("then checks the request against the operation's parameters", async () => {
    const valid = request(`${base}/pets?limit=5`);
    await outcome(route, valid);
    expect(await outcome(check, valid)).toBeUndefined();
    const invalid = request(`${base}/pets?limit=0`);
    await outcome(route, invalid);
    expect(await outcome(check, invalid)).toMatchObject({ status: 400 });
  });
});
