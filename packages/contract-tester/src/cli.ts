#!/usr/bin/env node
import { randomInt } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseSpec, readSpecText } from './openapi.js';
import { KEY_VARIABLE } from './curl.js';
import { junitXml } from './junit.js';
import { resultLine, summary } from './report.js';
import { readApiModel } from './spec-model.js';
import { RunError, runContractTests } from './runner.js';

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(number)) throw new InvalidArgumentError('a positive integer');
  return number;
}

function seedValue(value: string): number {
  const number = Number(value);
  if (!/^-?[0-9]+$/.test(value) || !Number.isSafeInteger(number) || number < -(2 ** 31) || number >= 2 ** 31) {
    throw new InvalidArgumentError('an integer from -2147483648 to 2147483647');
  }
  return number;
}

function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('an http(s) URL with the base path, e.g. http://127.0.0.1:8080/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('an http(s) URL');
  return url.href.replace(/\/$/, '');
}

interface Options {
  baseUrl: string;
  apiKey?: string;
  requests: number;
  seed?: number;
  operation?: string[];
  check?: string[];
  path?: string;
  junit?: string;
  spec?: string;
  auditPages: number;
}

/** Where the spec is looked for when --spec is not given: in the folder the command runs in. */
const DEFAULT_SPEC = 'openapi.yaml';

const program = new Command('openapi-contract-tester')
  .description(
    'Tests a deployment against its OpenAPI document: valid and invalid requests generated from the spec, every answer held to it, ' +
      'links followed; a failure is shrunk to a minimal request and printed as curl with the seed that reproduces it.',
  )
  .requiredOption('--base-url <url>', 'the deployment, with the base path (http://127.0.0.1:8080/v1)', baseUrl)
  .addOption(new Option('--api-key <key>', 'an API key of the deployment').env(KEY_VARIABLE))
  .option('--requests <n>', 'request budget: at least this many requests, shared among the checks', positiveInteger, 1000)
  .option('--seed <seed>', 'seed of the generated cases (default: a new one, printed)', seedValue)
  .option('--operation <operationId...>', 'test only these operations')
  .option('--check <name...>', 'run only these checks (names as printed)')
  .option('--path <path>', "with one --check: replay the failing case at fast-check's path (printed with a failure)")
  .option('--junit <file>', 'also write a JUnit XML report')
  .option('--spec <file>', `the OpenAPI document (default: ${DEFAULT_SPEC} in the current folder)`)
  .option('--audit-pages <n>', 'read at most this many pages of a listing when checking it for what the run created', positiveInteger, 1000)
  .showHelpAfterError()
  // A wrong option is a run that cannot start: exit 2, as for an unreachable deployment.
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

async function main(): Promise<number> {
  const options = program.parse().opts<Options>();
  // An empty PETSTORE_API_KEY is no key.
  if (options.apiKey === '') delete options.apiKey;
  const seed = options.seed ?? randomInt(2 ** 31);
  const spec = options.spec ?? DEFAULT_SPEC;
  if (options.spec === undefined && !existsSync(spec)) throw new RunError(`no --spec given and no ${DEFAULT_SPEC} in ${resolve('.')}`);
  const document = parseSpec(readSpecText(spec));
  const keyless = options.apiKey === undefined && readApiModel(document).operations.some(({ credentials }) => credentials.length > 0);
  process.stdout.write(
    `Contract tests of ${options.baseUrl} against ${document.info.title} ${document.info.version}: seed ${seed}, at least ${options.requests} requests` +
      `${keyless ? ' (no API key: only the checks that need none)' : ''}\n`,
  );
  const run = await runContractTests({
    baseUrl: options.baseUrl,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    requests: options.requests,
    seed,
    ...(options.operation ? { operations: options.operation } : {}),
    ...(options.check ? { checks: options.check } : {}),
    ...(options.path !== undefined ? { path: options.path } : {}),
    auditPages: options.auditPages,
    document,
    onResult: (result) => process.stdout.write(`${resultLine(result)}\n`),
  });
  process.stdout.write(`\n${summary(run)}\n`);
  if (options.junit) writeFileSync(options.junit, junitXml(run));
  return run.results.some(({ status }) => status === 'failed') ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A RunError is the user's to fix (an unreachable URL, a refused key): its message says all.
    const text = error instanceof RunError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`contract-test: ${text}\n`);
    process.exitCode = 2;
  },
);
