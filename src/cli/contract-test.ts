import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseSpec, readSpecText } from '../contract/spec.js';
import { KEY_VARIABLE } from '../contract-test/curl.js';
import { junitXml } from '../contract-test/junit.js';
import { resultLine, summary } from '../contract-test/report.js';
import { readApiModel } from '../contract-test/spec-model.js';
import { RunError, runContractTests } from '../contract-test/runner.js';

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

const program = new Command('contract-test')
  .description(
    'Tests a deployment against openapi.yaml: valid and invalid requests generated from the spec, every answer held to it, ' +
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
  .option('--spec <file>', 'the OpenAPI document (default: openapi.yaml of this package)')
  .option('--audit-pages <n>', 'read at most this many pages of a listing when checking it for what the run created', positiveInteger, 1000)
  .showHelpAfterError()
  // A wrong option is a run that cannot start: exit 2, as for an unreachable deployment.
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

async function main(): Promise<number> {
  const options = program.parse().opts<Options>();
  // An empty PETSTORE_API_KEY is no key.
  if (options.apiKey === '') delete options.apiKey;
  const seed = options.seed ?? randomInt(2 ** 31);
  const document = parseSpec(readSpecText(options.spec));
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
