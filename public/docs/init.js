// Starts swagger-ui on the spec this server publishes. A file rather than an inline script, so that
// the page's Content-Security-Policy can refuse inline scripts.
'use strict';

/** The page at /docs shows the current version's document; at /v1/docs, /v2/docs..., that major version's. */
function specPathOf(pagePath) {
  const version = /^\/v[1-9][0-9]*(?=\/docs$)/.exec(pagePath);
  return `${version ? version[0] : ''}/openapi.json`;
}

const SPEC_PATH = specPathOf(window.location.pathname);

/**
 * The spec's servers are the production and staging hosts, but this page belongs to one running
 * server, so "Try it out" should call it: put this server (same origin, the spec's base path) first
 * in the spec swagger-ui loads. The published spec itself stays unchanged.
 */
function thisServerFirst(response) {
  if (!response.ok || new URL(response.url, window.location.href).pathname !== SPEC_PATH) return response;
  const spec = JSON.parse(response.text);
  const [server] = spec.servers;
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name) => server.variables[name].default);
  const basePath = new URL(url, window.location.href).pathname.replace(/\/$/, '');
  spec.servers = [{ url: basePath, description: 'This server (Try it out sends requests here)' }, ...spec.servers];
  // swagger-ui reads the spec from the text.
  response.text = JSON.stringify(spec);
  return response;
}

window.ui = window.SwaggerUIBundle({
  url: SPEC_PATH,
  dom_id: '#swagger-ui',
  // No badge from the online validator: the page must not call out.
  validatorUrl: null,
  // Keeps the bearer key entered under "Authorize" across reloads, for "Try it out".
  persistAuthorization: true,
  deepLinking: true,
  displayRequestDuration: true,
  responseInterceptor: thisServerFirst,
});
