import { checkContract } from './contract-check.js';

// Statuses whose Response may not be built with a body.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** fetch, then the contract check on the response, whose body it returns read. */
export async function fetchChecked(
  input: Request | string | URL,
  init?: RequestInit,
): Promise<{ response: Response; text: string; body: unknown }> {
  const request = new Request(input, init);
  const response = await fetch(request);
  const text = await response.text();
  const body: unknown = text && response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined;
  const { pathname, search } = new URL(request.url);
  checkContract({
    method: request.method,
    url: pathname + search,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
    text,
  });
  return { response, text, body };
}

/**
 * A drop-in fetch for code that takes one (the typed client): every response is checked against
 * openapi.yaml before the caller sees it; a violation rejects the call.
 */
export async function contractCheckingFetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
  const { response, text } = await fetchChecked(input, init);
  return new Response(NULL_BODY_STATUSES.has(response.status) ? null : text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
