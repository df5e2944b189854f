#!/usr/bin/env node
// The floor of the design, for `npm run bench`: Express 5 and express-openapi-validator exactly as
// the project sets them up (src/http/express-app.ts, middleware/openapi-validator.ts, internals/:
// its settings, its validator options and patches, Express's prototypes built in), in front of the raw
// server's work for the read operations (bench/baseline-server.mjs), and nothing else: no request
// id, log line, metrics, rate limit, security headers or error objects. Any server that keeps the two
// libraries on its request path costs at least this much, so the project's ratio to the raw server
// cannot beat this server's. createPet too: the body read as the raw server reads it, then validated
// by the validator, then the raw server's insert (BASELINE_SYNCHRONOUS as for it). Run with tsx (it
// imports the project's TypeScript); BASELINE_DB.
import { createServer } from 'node:http';
import { loadContract } from '../src/contract/contract.js';
import { expressApp } from '../src/http/express-app.js';
import { expressMessages } from '../src/http/internals/index.js';
import { openApiValidator } from '../src/http/middleware/openapi-validator.js';
import { authenticated, getPet, insertPet, listPets, readJson, send, start, unauthenticated } from './baseline-server.mjs';

const app = expressApp();
// The raw server authenticates first, as the project does.
app.use((req, res, next) => (authenticated(req) ? next() : unauthenticated(res, req.path.startsWith('/v1/pets/'))));
// The validator checks a body parsed before it, as in the project (middleware/request-body.ts).
app.post('/v1/pets', (req, res, next) =>
  readJson(req, res, (body) => {
    req.body = body;
    next();
  }),
);
app.use(openApiValidator(loadContract()));
app.get('/v1/pets', (req, res) => listPets(res, new URLSearchParams(req.query)));
app.get('/v1/pets/:petId', (req, res) => getPet(res, req.params.petId));
app.post('/v1/pets', (req, res) => insertPet(res, req.body));
app.use((error, _req, res, _next) =>
  send(res, error.status ?? 500, { code: 'failed', message: error.message, status: error.status ?? 500 }),
);
start(createServer(expressMessages(app), app));
