#!/usr/bin/env node
// Fastify set up as its documentation shows: an onRequest hook for the key, and each route with the
// JSON schemas of its querystring, path parameters and body (here taken from openapi.yaml's operation,
// its $refs pointing into the spec's components added as a shared schema), around the raw server's
// work for the loads of the all-servers bench (bench/baseline-server.mjs). Run with tsx (it reads the
// spec through the project's TypeScript); BASELINE_DB, BASELINE_SYNCHRONOUS as for the raw server.
import Fastify from 'fastify';
import { loadContract } from '../src/contract/contract.js';
import { basePathOf, listOperations, parametersOf } from '../src/contract/spec.js';
import { authenticated, getPet, insertPet, listPets, start, unauthenticated } from './baseline-server.mjs';

const { document } = loadContract();
const SHARED = 'openapi';
const shared = (schema) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${SHARED}#/components/`));

/** Fastify's route schema for an operation's parameters in `where`, as one object schema. */
function parametersSchema(operation, where) {
  const parameters = parametersOf(document, operation).filter((parameter) => parameter.in === where);
  if (parameters.length === 0) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, shared(parameter.schema ?? {})])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

/** The operation's route options: its path in Fastify's syntax, and its schemas. */
function route(operationId) {
  const entry = listOperations(document).find(({ operation }) => operation.operationId === operationId);
  const body = entry.operation.requestBody?.content?.['application/json']?.schema;
  return {
    url: `${basePathOf(document, { onDisagreement: 'refuse' })}${entry.path.replace(/\{([^}]+)\}/g, ':$1')}`,
    method: entry.method.toUpperCase(),
    schema: {
      querystring: parametersSchema(entry.operation, 'query'),
      params: parametersSchema(entry.operation, 'path'),
      body: body && shared(body),
    },
  };
}

/** The raw server's work writes to a node response; here it goes through Fastify's reply. */
const replying = (reply) => ({
  writeHead: (status, headers) => reply.code(status).headers(headers),
  end: (body) => reply.send(body),
});

// The spec's schemas carry OpenAPI's own keywords (components, example, x-*), which Ajv's strict
// mode refuses as unknown.
const app = Fastify({ ajv: { customOptions: { strict: false } } });
app.addSchema({ $id: SHARED, components: shared(document.components) });
app.addHook('onRequest', async (request, reply) => {
  if (!authenticated(request.raw)) unauthenticated(replying(reply), request.url.startsWith('/v1/pets/'));
});
app.route({ ...route('listPets'), handler: (request, reply) => listPets(replying(reply), new URLSearchParams(request.query)) });
app.route({ ...route('getPet'), handler: (request, reply) => getPet(replying(reply), request.params.petId) });
app.route({ ...route('createPet'), handler: (request, reply) => insertPet(replying(reply), request.body) });
await app.ready();
start(app.server);
