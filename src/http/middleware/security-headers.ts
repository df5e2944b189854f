import type { RequestHandler } from 'express';

/** API responses are per-caller data: never cached by intermediaries, never content-sniffed. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

export function securityHeaders(): RequestHandler {
  const headers = Object.entries(SECURITY_HEADERS);
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
