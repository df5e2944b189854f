import type { Request, RequestHandler, Response } from 'express';

/** The little of an Express request the validator's routing and checking steps read, for GET `url`. */
export function getRequest(url: string): Request {
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
export const outcome = (step: RequestHandler, req: Request) =>
  new Promise<unknown>((resolve) => void step(req, {} as Response, (error?: unknown) => resolve(error)));
