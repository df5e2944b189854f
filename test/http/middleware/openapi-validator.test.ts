import type { Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { openApiValidator } from '../../../src/http/middleware/openapi-validator.js';

/** The little of an Express request the validator's two steps read, for GET `url`. */
function request(url: string): Request {
  const [path, query = ''] = url.split('?');
  return {
    method: 'GET',
    url,
    originalUrl: url,
    baseUrl: '',
    path,
    query: Object.fromEntries(new URLSearchParams(query)),
    headers: {},
    params: {},
    app: { enabled: (setting: string) => setting === 'strict routing' || setting === 'case sensitive routing' },
  } as unknown as Request;
}

/** What a step passes to next (undefined when it lets the request on). */
const outcome = (step: RequestHandler, req: Request) =>
  new Promise<unknown>((resolve) => void step(req, {} as Response, (error?: unknown) => resolve(error)));

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
