/**
 * Every assumption the server makes about a private part of Node, Express or
 * express-openapi-validator, one module each, here and nowhere else in src/: each says what it
 * relies on and has a guard test at its mirrored path under test/http/internals/, named after the
 * assumption, that fails the day a release breaks it. Where a public API does the job, it is used
 * instead. test/http/internals/index.test.ts checks that this list names every module of the
 * folder.
 */
export const REACHES = {
  'validator-route-cache': "replaces path-to-regexp's pathToRegexp export, which the validator calls per route per request",
  'validator-meta-schema': "replaces the validator's OpenAPISchemaValidator class (dist/framework/openapi.schema.validator.js)",
  'validator-steps': "picks the validator's steps by their function names",
  'half-open': "sets node:http Server's undocumented httpAllowHalfOpen",
  'destroy-soon': 'replaces socket.destroySoon(), which node:http calls to close after a response',
  'http-parser': "removes node:http's parser listener from a socket and restarts reading at its _handle",
  'express-prototypes': 'builds requests and responses with the prototypes Express sets on them (app.request, app.response)',
  'response-socket': "uses ServerResponse's undocumented shouldKeepAlive and assignSocket()",
} as const;

export { closeAfterLastResponse } from './destroy-soon.js';
export { expressMessages } from './express-prototypes.js';
export { answerHalfClosedConnections } from './half-open.js';
export { startReading, stopHttpParsing } from './http-parser.js';
export { closeConnectionAfter, responseOnSocket } from './response-socket.js';
export { deferValidatorMetaSchema } from './validator-meta-schema.js';
export { memoiseValidatorRouteRegExps } from './validator-route-cache.js';
export { routeAndCheckSteps } from './validator-steps.js';
