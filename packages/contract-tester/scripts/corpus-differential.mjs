#!/usr/bin/env node
// Differential evidence on the corpus: for each of a spread sample of documents, the tester's CLI
// (dist/cli.js) runs its examples, coverage and fuzzing phases against an echo server that holds
// every request to the same document with express-openapi-validator, an independent, well-kept
// request validator: a request it takes is answered 200, one it refuses 400. The tester's own
// positive_data_acceptance then reports each request it made as valid that the validator refused,
// and negative_data_rejection (with missing_required_header) each request it made to break the
// spec that the validator took: every disagreement, with the request and why it was made.
//
//   node scripts/corpus-differential.mjs [--sample 300] [--requests 40] [--max-time 8] [--only REGEX] [--out FILE]
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { load as loadYaml } from 'js-yaml';
import { corpusDocuments, spreadSample } from './corpus.mjs';
import { ndjsonLines } from './corpus-mock.mjs';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const CHECKS = 'positive_data_acceptance,negative_data_rejection,missing_required_header';

/** The base path of a document's first server (its variables at their defaults). */
function basePathOf(document) {
  const server = document.servers?.[0];
  if (!server?.url) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name) => server.variables?.[name]?.default ?? '');
  return new URL(url, 'http://x').pathname.replace(/\/$/, '');
}

/** An echo server that answers 200 to a request the validator takes, its status (4xx) to one it refuses. */
async function echoServer(document) {
  const verdicts = { accepted: 0, refused: 0, validatorErrors: 0, errors: [] };
  const app = express();
  app.use(express.raw({ type: () => true, limit: '10mb' }));
  app.use((request, response, next) => {
    // express-openapi-validator reads a parsed body: JSON where the request says JSON (a body that
    // is not JSON refused with 400, as express.json refuses it before any validator sees it).
    const type = request.headers['content-type'] ?? '';
    if (Buffer.isBuffer(request.body) && /json/i.test(type)) {
      try {
        request.body = JSON.parse(request.body.toString('utf8'));
      } catch {
        verdicts.refused += 1;
        response.status(400).json({ message: 'the body is not JSON' });
        return;
      }
    } else if (Buffer.isBuffer(request.body) && /x-www-form-urlencoded/i.test(type)) {
      request.body = Object.fromEntries(new URLSearchParams(request.body.toString('utf8')));
    }
    next();
  });
  app.use(
    OpenApiValidator.middleware({
      apiSpec: structuredClone(document),
      validateRequests: true,
      validateResponses: false,
      validateSecurity: false,
      validateApiSpec: false,
    }),
  );
  app.use((_request, response) => {
    verdicts.accepted += 1;
    response.status(200).json({});
  });
  app.use((error, _request, response, _next) => {
    const status = Number(error.status) || 500;
    if (status >= 500) {
      verdicts.validatorErrors += 1;
      if (verdicts.errors.length < 3) verdicts.errors.push(String(error.message).slice(0, 200));
    } else verdicts.refused += 1;
    // A refusal the validator makes for a method or path it does not know is still a refusal.
    response.status(status >= 500 ? 500 : status).json({ message: String(error.message).slice(0, 500) });
  });
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { server, verdicts, port: server.address().port };
}

function runTester(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr: stderr.slice(0, 500) });
    });
  });
}

async function differential({ id, path }, options) {
  const text = readFileSync(path, 'utf8');
  const document = path.endsWith('.json') ? JSON.parse(text) : loadYaml(text);
  let echo;
  try {
    echo = await echoServer(document);
  } catch (error) {
    return { id, outcome: 'validator refused the document', reason: String(error.message).slice(0, 200) };
  }
  const folder = mkdtempSync(join(tmpdir(), 'corpus-differential-'));
  const ndjson = join(folder, 'run.ndjson');
  try {
    const run = await runTester([
      '--spec',
      path,
      '--base-url',
      `http://127.0.0.1:${echo.port}${basePathOf(document)}`,
      '--checks',
      CHECKS,
      '--phases',
      'examples,coverage,fuzzing',
      '--requests',
      String(options.requests),
      '--max-time',
      String(options.maxTime),
      '--seed',
      '1',
      '--api-key',
      'corpus-key',
      '--auth',
      'corpus:key',
      '--skip-unauthenticated',
      '--ndjson',
      ndjson,
    ]);
    const lines = ndjsonLines(ndjson);
    const failures = lines.filter(({ type }) => type === 'failure');
    const exchanges = lines.filter(({ type }) => type === 'exchange').length;
    return {
      id,
      outcome: run.status === 2 ? 'not run' : 'ran',
      status: run.status,
      ...(run.status === 2 ? { reason: run.stderr } : {}),
      exchanges,
      ...echo.verdicts,
      disagreements: failures.map(({ check, title, message, why }) => ({ check, title, why, message: String(message).slice(0, 400) })),
    };
  } finally {
    echo.server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      sample: { type: 'string', default: '300' },
      requests: { type: 'string', default: '40' },
      'max-time': { type: 'string', default: '8' },
      only: { type: 'string' },
      out: { type: 'string', default: '/tmp/corpus-differential.json' },
    },
  });
  const only = values.only ? new RegExp(values.only) : undefined;
  const documents = spreadSample(
    corpusDocuments().filter(({ id }) => !only || only.test(id)),
    Number(values.sample),
  );
  const options = { requests: Number(values.requests), maxTime: Number(values['max-time']) };
  const results = [];
  for (const [index, document] of documents.entries()) {
    const result = await differential(document, options).catch((error) => ({
      id: document.id,
      outcome: 'crashed',
      reason: String(error.stack).slice(0, 300),
    }));
    results.push(result);
    appendFileSync(`${values.out}.ndjson`, `${JSON.stringify(result)}\n`);
    process.stdout.write(`${index + 1}/${documents.length} ${result.id}: ${result.outcome} ${result.disagreements?.length ?? ''}\n`);
  }
  writeFileSync(values.out, JSON.stringify(results, null, 1));
}

await main();
