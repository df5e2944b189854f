import type { RequestHandler } from 'express';
import { holdHeaders } from '../held-headers.js';

/** API responses are per-caller data: never cached by intermediaries, never content-sniffed. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

export function securityHeaders(): RequestHandler {
  const fields = Object.entries(SECURITY_HEADERS).flat();
  return (_req, res, next) => {
    holdHeaders(res, fields);
    next();
  };
}
