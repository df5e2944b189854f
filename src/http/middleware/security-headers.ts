import type { RequestHandler } from 'express';

/** API responses are per-caller data: never cached by intermediaries, never content-sniffed. */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}
