#!/usr/bin/env node
// Express 5 and express-openapi-validator set up as their own documentation shows (express.json(),
// then the validator's middleware given openapi.yaml), around the raw server's work for the loads of
// the all-servers bench (bench/baseline-server.mjs): the stack a user would reach for first, which
// the project has to beat. BASELINE_DB, BASELINE_SYNCHRONOUS as for the raw server.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { authenticated, getPet, insertPet, listPets, send, start, unauthenticated } from './baseline-server.mjs';

const app = express();
app.use(express.json());
app.use((req, res, next) => (authenticated(req) ? next() : unauthenticated(res, req.path.startsWith('/v1/pets/'))));
app.use(
  OpenApiValidator.middleware({
    apiSpec: fileURLToPath(new URL('../openapi.yaml', import.meta.url)),
    validateRequests: true,
    validateResponses: false,
  }),
);
app.get('/v1/pets', (req, res) => listPets(res, new URLSearchParams(req.query)));
app.get('/v1/pets/:petId', (req, res) => getPet(res, req.params.petId));
app.post('/v1/pets', (req, res) => insertPet(res, req.body));
app.use((error, _req, res, _next) =>
  send(res, error.status ?? 500, { code: 'failed', message: error.message, status: error.status ?? 500 }),
);
start(createServer(app));
