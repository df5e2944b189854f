#!/usr/bin/env node
import { randomInt } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError, EMPTY_PROFILE, readConfigFile, type Profile } from './config.js';
import type { Header } from './generate/requests.js';
import { API_KEY_VARIABLE, AUTH_VARIABLE, Credentials, variableName, type CredentialOptions } from './http/credentials.js';
import type { ExchangeRecord } from './http/http-client.js';
import { harLog } from './report/har.js';
import { junitXml } from './report/junit.js';
import { exchangeLine, failureLine, scenarioLine, summaryLine } from './report/ndjson.js';
import { shellQuote } from './report/curl.js';
import { resultLine, summary, type ReportContext } from './report/report.js';
import { coverageJson } from './report/schema-coverage.js';
import { maxResponseTime } from './checks/case/max-response-time.js';
import { describeCheck } from './registry/checks.js';
import { PHASES, type Phase } from './run/scenarios.js';
import { planRun, RunError, runContractTests, runFailed, type Filters, type RunOptions } from './run/runner.js';
import { DeadlineReached, setGenerationDeadline } from './deadline.js';
import { loadSpec } from './spec/load.js';
import type { OpenApiDocument } from './spec/openapi.js';

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(number)) throw new InvalidArgumentError('a positive integer');
  return number;
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(number > 0)) throw new InvalidArgumentError('a positive number');
  return number;
}

function percentage(value: string): number {
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || number > 100) throw new InvalidArgumentError('a percentage from 0 to 100');
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

/** A repeatable option that also takes comma-separated lists: `--tag a --tag b,c`. */
const list = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
];

function header(value: string, previous: Header[] = []): Header[] {
  const colon = value.indexOf(':');
  if (colon <= 0) throw new InvalidArgumentError('"Name: value"');
  return [...previous, { name: value.slice(0, colon).trim(), value: value.slice(colon + 1).trim() }];
}

function security(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const equals = value.indexOf('=');
  if (equals <= 0) throw new InvalidArgumentError('NAME=VALUE, NAME a security scheme of the spec');
  return { ...previous, [value.slice(0, equals)]: value.slice(equals + 1) };
}

function phases(value: string): Phase[] {
  const named = value.split(',').map((phase) => phase.trim());
  const unknown = named.filter((phase) => !(PHASES as readonly string[]).includes(phase));
  if (unknown.length) throw new InvalidArgumentError(`phases among ${PHASES.join(', ')}`);
  return named as Phase[];
}

interface Options {
  baseUrl: string;
  spec?: string;
  config?: string;
  header?: Header[];
  auth?: string;
  security?: Record<string, string>;
  apiKey?: string;
  checks?: string[];
  excludeChecks?: string[];
  phases?: Phase[];
  operation?: string[];
  tag?: string[];
  path?: string[];
  method?: string[];
  excludeOperation?: string[];
  excludeTag?: string[];
  excludePath?: string[];
  excludeMethod?: string[];
  excludeDeprecated?: boolean;
  requests: number;
  maxTime?: number;
  maxResponseTime?: number;
  seed?: number;
  replay?: string;
  replayPath?: string;
  junit?: string;
  har?: string;
  ndjson?: string;
  coverageReport?: string;
  minCoverage?: number;
  dryRun?: boolean;
  failOnNotExercised?: boolean;
  skipUnauthenticated?: boolean;
}

/** Where the spec is looked for when neither --spec nor the config names one: in the folder the command runs in. */
const DEFAULT_SPEC = 'openapi.yaml';

const program = new Command('openapi-contract-tester')
  .description(
    "Tests a deployment against its OpenAPI 3.0 or 3.1 document: the spec's examples, its boundaries, valid and invalid requests generated " +
      'from it, requests without credentials, and sequences that follow its links and what creates make; every answer held to the spec. ' +
      'Each distinct failure is shrunk to a minimal case and printed as curl, with the command that replays it.',
  )
  .requiredOption('--base-url <url>', 'the deployment, with the base path (http://127.0.0.1:8080/v1)', baseUrl)
  .option('--spec <file|url>', `the OpenAPI document, YAML or JSON (default: the config's spec, or ${DEFAULT_SPEC} in the current folder)`)
  .option('--config <file>', 'a JSON config turning on stricter checks (a profile; see the README)')
  .option(
    '-H, --header <header>',
    'a header for every request, "Name: value" (repeatable); one holding a secret is printed as a variable',
    header,
  )
  .addOption(new Option('--auth <user:password>', 'user and password for HTTP basic schemes').env(AUTH_VARIABLE))
  .option(
    '--security <NAME=VALUE>',
    `a credential for the security scheme NAME (repeatable; or ${variableName('SECURITY', 'NAME')})`,
    security,
  )
  .addOption(new Option('--api-key <key>', 'a credential for every bearer, OAuth2, OpenID Connect and apiKey scheme').env(API_KEY_VARIABLE))
  .option('--checks <names>', "only these checks (comma-separated; default: the default checks and the config's)", list)
  .option('--exclude-checks <names>', 'not these checks', list)
  .option('--phases <names>', `only these phases (${PHASES.join(',')})`, phases)
  .option('--operation <id>', 'test only these operations (repeatable, or comma-separated)', list)
  .option('--tag <tag>', 'only operations with these tags', list)
  .option('--path <template>', 'only operations at these path templates (/pets/{petId}; ^… for a regular expression)', list)
  .option('--method <method>', 'only operations of these methods', list)
  .option('--exclude-operation <id>', 'not these operations', list)
  .option('--exclude-tag <tag>', 'not operations with these tags', list)
  .option('--exclude-path <template>', 'not operations at these paths', list)
  .option('--exclude-method <method>', 'not operations of these methods', list)
  .option('--exclude-deprecated', 'not deprecated operations')
  .option('--requests <n>', 'request budget: at least this many requests, shared among the generated cases', positiveInteger, 1000)
  .option('--max-time <seconds>', 'start no new case after this long', positiveNumber)
  .option('--max-response-time <ms>', `${maxResponseTime.name}: fail answers slower than this`, positiveNumber)
  .option('--seed <seed>', 'seed of the generated cases (default: a new one, printed)', seedValue)
  .option('--replay <scenario>', 'replay one case of this scenario (printed with a failure), with --replay-path and --seed')
  .option('--replay-path <path>', "the case's path (printed with a failure)")
  .option('--junit <file>', 'also write a JUnit XML report')
  .option('--har <file>', 'also write every exchange as HAR 1.2 (secrets as variables)')
  .option('--ndjson <file>', 'also write every exchange, scenario and failure as a JSON line')
  .option('--coverage-report <file>', 'also write the schema coverage (operations, parameters, body properties, responses) as JSON')
  .option('--min-coverage <percent>', 'fail the run when its overall schema coverage is below this percentage', percentage)
  .option('--dry-run', 'print what would be tested, and what not and why, and send nothing')
  .option('--fail-on-not-exercised', 'an operation no valid request got a success from fails the run (default: a warning)')
  .option('--skip-unauthenticated', 'leave out operations the tester holds no credentials for (default: each fails the run)')
  .showHelpAfterError()
  // A wrong option is a run that cannot start: exit 2, as for an unreachable deployment.
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

/** The secrets of the spec's schemes given by environment variable only. */
function securityFromEnvironment(schemes: string[], given: Record<string, string> = {}): Record<string, string> {
  const found = { ...given };
  for (const name of schemes) {
    const value = process.env[variableName('SECURITY', name)];
    if (value !== undefined && value !== '' && found[name] === undefined) found[name] = value;
  }
  return found;
}

/** The command that ran, as a reader can run it again: its options without seed and outputs, secrets as variables. */
function commandLine(options: Options, spec: string, credentials: Credentials): string {
  const args = ['npx openapi-contract-tester', '--base-url', shellQuote(options.baseUrl), '--spec', shellQuote(spec)];
  if (options.config) args.push('--config', shellQuote(resolve(options.config)));
  for (const { name, value } of credentials.plainHeaders) args.push('-H', shellQuote(`${name}: ${value}`));
  for (const { name, variable } of credentials.secretHeaders) args.push('-H', `"${name}: $${variable}"`);
  if (options.auth !== undefined) args.push('--auth', `"$${AUTH_VARIABLE}"`);
  for (const name of Object.keys(options.security ?? {})) args.push('--security', `"${name}=$${variableName('SECURITY', name)}"`);
  if (options.apiKey !== undefined) args.push('--api-key', `"$${API_KEY_VARIABLE}"`);
  const lists: Array<[string, string[] | undefined]> = [
    ['--checks', options.checks],
    ['--exclude-checks', options.excludeChecks],
    ['--operation', options.operation],
    ['--tag', options.tag],
    ['--path', options.path],
    ['--method', options.method],
    ['--exclude-operation', options.excludeOperation],
    ['--exclude-tag', options.excludeTag],
    ['--exclude-path', options.excludePath],
    ['--exclude-method', options.excludeMethod],
  ];
  for (const [flag, values] of lists) if (values?.length) args.push(flag, shellQuote(values.join(',')));
  if (options.phases) args.push('--phases', options.phases.join(','));
  if (options.excludeDeprecated) args.push('--exclude-deprecated');
  if (options.maxResponseTime !== undefined) args.push('--max-response-time', String(options.maxResponseTime));
  return args.join(' ');
}

/**
 * The spec, read within --max-time: it counts from the process's start (performance.now()'s
 * origin), so reading the spec is part of the run; the loader's walks over the document ask the
 * deadline, and the time parsing took is judged when it ends.
 */
async function readSpec(spec: string, maxTime: number | undefined): Promise<OpenApiDocument> {
  const spent = () => new RunError(`--max-time ${maxTime} s was reached while reading the spec`);
  if (maxTime !== undefined) setGenerationDeadline(maxTime * 1000);
  let document;
  try {
    document = await loadSpec(spec);
  } catch (error) {
    if (error instanceof DeadlineReached) throw spent();
    throw new RunError(`cannot read the spec: ${(error as Error).message}`);
  } finally {
    setGenerationDeadline(undefined);
  }
  if (maxTime !== undefined && performance.now() > maxTime * 1000) throw spent();
  return document;
}

function readProfile(path: string | undefined): Profile {
  if (!path) return EMPTY_PROFILE;
  try {
    return readConfigFile(path);
  } catch (error) {
    if (error instanceof ConfigError) throw new RunError(error.message);
    throw error;
  }
}

/** The credentials the options give, each --security name checked against the spec's schemes. */
function credentialOptionsOf(options: Options, document: OpenApiDocument): CredentialOptions {
  const schemes = Object.keys((document.components['securitySchemes'] as object | undefined) ?? {});
  const unknownSchemes = Object.keys(options.security ?? {}).filter((name) => !schemes.includes(name));
  if (unknownSchemes.length)
    throw new RunError(`--security ${unknownSchemes.join(', ')}: the spec's security schemes are ${schemes.join(', ') || 'none'}`);
  options.security = securityFromEnvironment(schemes, options.security);
  return {
    ...(options.header ? { headers: options.header } : {}),
    ...(options.auth !== undefined ? { basic: options.auth } : {}),
    ...(Object.keys(options.security).length ? { security: options.security } : {}),
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  };
}

function filtersOf(options: Options): Filters {
  return {
    ...(options.operation ? { operations: options.operation } : {}),
    ...(options.tag ? { tags: options.tag } : {}),
    ...(options.path ? { paths: options.path } : {}),
    ...(options.method ? { methods: options.method } : {}),
    ...(options.excludeOperation ? { excludeOperations: options.excludeOperation } : {}),
    ...(options.excludeTag ? { excludeTags: options.excludeTag } : {}),
    ...(options.excludePath ? { excludePaths: options.excludePath } : {}),
    ...(options.excludeMethod ? { excludeMethods: options.excludeMethod } : {}),
    ...(options.excludeDeprecated ? { excludeDeprecated: true } : {}),
  };
}

function runOptionsOf(
  options: Options,
  document: OpenApiDocument,
  profile: Profile,
  credentials: CredentialOptions,
  seed: number,
): RunOptions {
  if ((options.replay === undefined) !== (options.replayPath === undefined)) throw new RunError('--replay and --replay-path go together');
  return {
    baseUrl: options.baseUrl,
    document,
    requests: options.requests,
    seed,
    credentials,
    profile: options.failOnNotExercised ? { ...profile, failOnNotExercised: true } : profile,
    filters: filtersOf(options),
    ...(options.checks ? { checks: options.checks } : {}),
    ...(options.excludeChecks ? { excludeChecks: options.excludeChecks } : {}),
    ...(options.phases ? { phases: options.phases } : {}),
    ...(options.maxTime !== undefined ? { maxTimeSeconds: options.maxTime, startedAt: 0 } : {}),
    ...(options.maxResponseTime !== undefined ? { maxResponseTimeMs: options.maxResponseTime } : {}),
    ...(options.replay !== undefined ? { replay: { scenario: options.replay, path: options.replayPath! } } : {}),
    ...(options.skipUnauthenticated ? { skipUnauthenticated: true } : {}),
    ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}),
  };
}

/** Runs the tests, printing each scenario's result as it ends, then writes the reports asked for. */
async function runAndReport(runOptions: RunOptions, options: Options, context: ReportContext): Promise<number> {
  const records: ExchangeRecord[] = [];
  const ndjson = options.ndjson ? createWriteStream(options.ndjson) : undefined;
  const run = await runContractTests({
    ...runOptions,
    onResult: (result) => {
      process.stdout.write(`${resultLine(result)}\n`);
      ndjson?.write(`${scenarioLine(result)}\n`);
    },
    ...(options.har || ndjson
      ? {
          onExchange: (record: ExchangeRecord) => {
            if (options.har) records.push(record);
            ndjson?.write(`${exchangeLine(record)}\n`);
          },
        }
      : {}),
  });
  process.stdout.write(`\n${summary(run, context)}\n`);
  if (options.junit) writeFileSync(options.junit, junitXml(run, context));
  if (options.coverageReport && run.coverage) writeFileSync(options.coverageReport, coverageJson(run));
  if (options.har) writeFileSync(options.har, harLog(records, new URL(options.baseUrl).origin, packageVersion()));
  if (ndjson) {
    for (const failure of run.failures) ndjson.write(`${failureLine(failure)}\n`);
    ndjson.write(`${summaryLine(run)}\n`);
    await new Promise<void>((done) => ndjson.end(done));
  }
  return runFailed(run) ? 1 : 0;
}

async function main(): Promise<number> {
  const options = program.parse().opts<Options>();
  if (options.auth === '') delete options.auth;
  if (options.apiKey === '') delete options.apiKey;
  const profile = readProfile(options.config);
  const spec = options.spec ?? profile.spec ?? DEFAULT_SPEC;
  if (!options.spec && !profile.spec && !existsSync(spec)) throw new RunError(`no --spec given and no ${DEFAULT_SPEC} in ${resolve('.')}`);
  const document = await readSpec(spec, options.maxTime);
  const credentialOptions = credentialOptionsOf(options, document);
  const credentials = new Credentials(credentialOptions);
  const specShown = /^https?:/i.test(spec) ? spec : resolve(spec);
  const context: ReportContext = { credentials, command: commandLine(options, specShown, credentials) };
  const seed = options.seed ?? randomInt(2 ** 31);
  const runOptions = runOptionsOf(options, document, profile, credentialOptions, seed);
  const header = `${document.info.title} ${document.info.version}${profile.name ? `, with ${profile.name}` : ''}`;
  if (options.dryRun) {
    process.stdout.write(`${planText(runOptions, header)}\n`);
    return 0;
  }
  process.stdout.write(`Contract tests of ${options.baseUrl} against ${header}: seed ${seed}, at least ${options.requests} requests\n`);
  return runAndReport(runOptions, options, context);
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** --dry-run: the plan in words. */
function planText(options: RunOptions, header: string): string {
  const plan = planRun(options);
  const lines = [`Plan of the contract tests of ${options.baseUrl} against ${header} (nothing is sent):`];
  lines.push('  checks:', ...plan.checks.map((check) => `    ${check}: ${describeCheck(check)}`), `  phases: ${plan.phases.join(', ')}`);
  lines.push(`  operations tested: ${plan.tested.join(', ') || 'none'}`);
  if (plan.filteredOut.length) lines.push(`  left out by the filters: ${plan.filteredOut.join(', ')}`);
  for (const { operation, reason } of plan.skipped) lines.push(`  not tested: ${operation}: ${reason}`);
  for (const link of plan.inferredLinks) lines.push(`  link inferred: ${link}`);
  for (const warning of plan.warnings) lines.push(`  warning: ${warning}`);
  lines.push('  scenarios:');
  for (const scenario of plan.scenarios)
    lines.push(`    ${scenario.name} [${scenario.phase}]: ${scenario.cases} ${scenario.fixed ? 'fixed cases' : 'generated cases'}`);
  return lines.join('\n');
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
