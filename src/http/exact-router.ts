import { Router } from 'express';

/** A router that matches paths exactly as written: case-sensitive, and a trailing slash is another path. */
export function exactRouter(): Router {
  return Router({ caseSensitive: true, strict: true });
}
