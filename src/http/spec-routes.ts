import { exactRouter } from './exact-router.js';
import type { Contract } from '../contract/contract.js';
import { formatSpec } from '../contract/spec.js';

/** The media type openapi.yaml's description announces for /openapi.yaml (RFC 9512). */
const YAML_MEDIA_TYPE = 'application/yaml';

/**
 * Publishes the contract the server enforces at /openapi.json and /openapi.yaml, outside the base
 * path and without a key, for client generators and the reference at /docs. openapi.yaml has no
 * external $refs, so it is its own bundle. Both bodies are made once, here, not per request.
 */
export function specRoutes({ document, sourceText }: Contract) {
  const json = JSON.stringify(document);
  // The file as written (comments included) when it is what the server runs; a contract built some
  // other way (as tests do) is serialised, so that both routes always show the same document.
  const yaml = sourceText ?? formatSpec(document);
  const router = exactRouter();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/openapi.yaml', (_req, res) => {
    res.type(YAML_MEDIA_TYPE).send(yaml);
  });
  return router;
}
