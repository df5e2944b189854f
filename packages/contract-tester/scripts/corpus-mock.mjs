// The corpus's second half: the tester against a Prism mock of each document (Prism serves answers
// its own reading of the spec makes valid). A failure is either the mock's (explained, with its
// evidence, in test/corpus/expectations.json) or the tester misreading the spec: unexplained.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const PRISM = join(require.resolve('@stoplight/prism-cli/package.json'), '..', 'dist', 'index.js');

/**
 * The expected failures: document id to [{ check, operation?, status?, signature?, answer?, cause, reason, evidence }];
 * under "*", those of the mock itself on every document (Prism's answers that break HTTP).
 */
export function expectations() {
  return JSON.parse(readFileSync(join(root, 'test', 'corpus', 'expectations.json'), 'utf8'));
}

/** What explains a document's failures: its own entries, then those for every document. */
export function expectedFor(id, all = expectations()) {
  return [...(all[id] ?? []), ...(all['*'] ?? [])];
}

/** Starts Prism on a document, on a free port; resolves with its URL and a stop, or the reason it would not start. */
export function startMock(path, seconds = 180) {
  const child = spawn(process.execPath, [PRISM, 'mock', path, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  });
  const output = [];
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  createInterface({ input: child.stderr }).on('line', (line) => output.push(stripVTControlCharacters(line)));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      void stop();
      resolve({ error: `Prism did not listen within ${seconds} s` });
    }, seconds * 1000);
    exited.then((code) => {
      clearTimeout(timer);
      resolve({ error: `Prism exited with ${code}: ${output.slice(-3).join(' | ').slice(0, 300)}` });
    });
    createInterface({ input: child.stdout }).on('line', (raw) => {
      const line = stripVTControlCharacters(raw);
      output.push(line);
      const url = /Prism is listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url: url.replace(/\/$/, ''), stop });
      }
    });
  });
}

/**
 * Whether an expectation explains a failure: the same check, and the operation and status where it
 * names them, and where it gives a `signature` (a regular expression), the failure's signature (the
 * schema's pointer and the errors, for a response that breaks its schema) or message matches it;
 * where it gives an `answer`, the body the failure quotes (its message's second line) matches that.
 */
export function explains(expected, failure) {
  return (
    expected.check === failure.check &&
    (expected.operation === undefined || expected.operation === failure.label) &&
    (expected.status === undefined || expected.status === failure.status) &&
    (expected.signature === undefined || new RegExp(expected.signature).test(failure.signature ?? failure.message)) &&
    (expected.answer === undefined || new RegExp(expected.answer).test(failure.answer ?? ''))
  );
}

/** One document against its mock: the failures, each with its explanation or none. */
export async function mockRun(document, { maxTime, requests, runCli, expected = expectedFor(document.id) }) {
  const mock = await startMock(document.path);
  if (mock.error) return { id: document.id, result: 'mock-refused', reason: mock.error };
  const folder = mkdtempSync(join(tmpdir(), 'corpus-'));
  try {
    const ndjson = join(folder, 'run.ndjson');
    const run = await runCli([
      '--spec',
      document.path,
      '--base-url',
      mock.url,
      '--api-key',
      'corpus-key',
      '--requests',
      String(requests),
      '--max-time',
      String(maxTime),
      '--seed',
      '1',
      '--ndjson',
      ndjson,
    ]);
    const lines = ndjsonLines(ndjson);
    const failures = lines
      .filter(({ type }) => type === 'failure')
      .map(({ check, label, status, message, signature }) => ({
        check,
        label,
        status,
        message: String(message).split('\n')[0].slice(0, 240),
        ...(signature ? { signature } : {}),
        ...(String(message).split('\n')[1] ? { answer: String(message).split('\n')[1].slice(0, 240) } : {}),
      }));
    const summary = lines.find(({ type }) => type === 'summary');
    return {
      id: document.id,
      result: run.hung ? 'hung' : run.code === 2 ? 'refused' : 'ran',
      code: run.code,
      seconds: run.seconds,
      peakRssKb: run.peakRssKb,
      ...(run.code === 2 ? { reason: run.stderr.trim().split('\n')[0].slice(0, 240) } : {}),
      requests: summary?.requests,
      failures: failures.map((failure) => ({ ...failure, explainedBy: expected.find((item) => explains(item, failure)) })),
    };
  } finally {
    await mock.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The first `count` documents that run against a mock (one that Prism will not serve is passed over). */
export async function mockRuns(documents, { count, maxTime, requests, runCli }) {
  const runs = [];
  for (const document of documents) {
    if (runs.filter(({ result }) => result !== 'mock-refused').length >= count) break;
    const run = await mockRun(document, { maxTime, requests, runCli });
    process.stdout.write(
      `mock ${run.id}: ${run.result}${run.reason ? ` (${run.reason})` : ''}, ${run.failures?.length ?? 0} failures` +
        `${run.failures?.length ? `: ${run.failures.map((f) => `${f.check} ${f.label} ${f.status}${f.explainedBy ? ` [${f.explainedBy.cause}]` : ''}`).join('; ')}` : ''}\n`,
    );
    runs.push(run);
  }
  const failures = runs.flatMap(({ id, failures: list = [] }) => list.map((failure) => ({ id, ...failure })));
  const byCause = {};
  for (const { check, explainedBy } of failures) {
    const key = `${explainedBy ? explainedBy.cause : 'unexplained'}: ${check}`;
    byCause[key] = (byCause[key] ?? 0) + 1;
  }
  return {
    documents: runs.filter(({ result }) => result === 'ran').length,
    mockRefused: runs.filter(({ result }) => result === 'mock-refused').map(({ id, reason }) => ({ id, reason })),
    testerRefused: runs.filter(({ result }) => result === 'refused').map(({ id, reason }) => ({ id, reason })),
    hung: runs.filter(({ result }) => result === 'hung').map(({ id }) => id),
    failuresByCause: byCause,
    unexplained: failures.filter(({ explainedBy }) => !explainedBy),
    runs,
  };
}

/** The lines of a run's NDJSON report, none when there is no report (the run could not start: exit 2, said on stderr). */
export function ndjsonLines(path) {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}
