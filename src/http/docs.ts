import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import { PACKAGE_ROOT } from '../package-root.js';

/** Resolved, not imported: importing swagger-ui-dist would load its 1.5 MB browser bundle into the server. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Our page and its start-up script. */
const PAGE_DIR = join(PACKAGE_ROOT, 'public', 'docs');

/**
 * The files the page loads. swagger-ui-dist also ships a demo page whose initializer points at an
 * external pet store; serving it would put a page that calls out from this origin.
 */
const ASSETS = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/favicon-16x16.png', '/favicon-32x32.png']);

/**
 * Scripts only from this origin (the page's start-up script is a file for that reason); swagger-ui
 * styles with inline style attributes and draws icons as data: images. "Try it out" may only call
 * this origin, which the page selects as its server.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** No ETag or Last-Modified (responses are no-store), and keep the app's Cache-Control. */
const FILE_OPTIONS = { etag: false, lastModified: false, cacheControl: false } as const;
const STATIC_OPTIONS = { ...FILE_OPTIONS, index: false, redirect: false } as const;

const sendPage: RequestHandler = (_req, res, next) => res.sendFile('index.html', { root: PAGE_DIR, ...FILE_OPTIONS }, next);

const onlyAssets: RequestHandler = (req, _res, next) => (ASSETS.has(req.path) ? next() : next('router'));

/**
 * The interactive API reference (swagger-ui) at /docs, served entirely from this server, so it
 * works without internet access. Mount at /docs: the page refers to its files by absolute path.
 */
export function apiReference(): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    next();
  });
  // A route of its own: express.static answers /docs (no trailing slash) only with a redirect.
  router.get('/', sendPage);
  router.use(express.static(PAGE_DIR, STATIC_OPTIONS));
  const assets = Router();
  assets.use(onlyAssets, express.static(SWAGGER_UI_DIR, STATIC_OPTIONS));
  router.use('/assets', assets);
  return router;
}

/**
 * The same page at a major version's `/v{major}/docs`: it loads its files from /docs and that
 * version's document, `/v{major}/openapi.json` (public/docs/init.js reads which from its address).
 */
export function apiReferencePage(): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    sendPage(req, res, next);
  };
}
