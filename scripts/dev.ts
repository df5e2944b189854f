// `npm run dev`: the server from source, restarted on every save of openapi.yaml (and of any file
// it references) or of src/:
// - a spec save runs npm run generate in a process kept warm for it (dev/generator.ts): the spec's
//   checks first (a spec that cannot be served leaves the last good server running and prints each
//   problem as file:line:col), then generated/, the handler registry and the scaffolds of new
//   operations, each file written only when its content changes;
// - the next server, its packages loaded ahead (dev/server.ts), starts on the new contract; the
//   running one stops, without the production drain, once the new one has opened its store and is
//   about to listen, so a server that cannot start leaves the last good one serving;
// - while the spec cannot be served, every save (of src/ too) checks it again rather than restarting
//   on it, and says why the last good server keeps running;
// - the type check (tsc --watch, the saved files first) and the spec's house rules (Spectral) run in
//   the background, at a low priority, and print what they find without holding the restart back;
// - the server checks every handler's answer against the spec (CHECK_RESPONSES=on, dev/server.ts)
//   and answers 500, saying why, instead of one the spec does not allow.
// Options: --no-typecheck, --no-lint. docs/editing-the-spec.md has what runs on a save, and the
// measured save-to-served time.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { watch } from 'chokidar';
import { PACKAGE_ROOT } from '../src/package-root.js';
import { SpecLint, Typecheck } from './dev/background.js';
import { Generator } from './dev/generator.js';
import { GiveWay } from './dev/priority.js';
import { DevServer, type Started } from './dev/server.js';
import { specFiles } from './dev/spec-files.js';
import type { LineHandler } from './dev/warm.js';

const root = PACKAGE_ROOT;
const SPEC = join(root, 'openapi.yaml');
const SRC = join(root, 'src');
const GENERATED = join(root, 'generated');
const { values: options } = parseArgs({
  options: { 'no-typecheck': { type: 'boolean', default: false }, 'no-lint': { type: 'boolean', default: false } },
});

const say = (message: string) => process.stdout.write(`[dev] ${message}\n`);

// The server's "listening" line is how npm run dev knows it serves.
if (['warn', 'error', 'fatal', 'silent'].includes(process.env['LOG_LEVEL'] ?? '')) {
  say(
    `LOG_LEVEL=${process.env['LOG_LEVEL']} hides the server's "listening" line, which npm run dev waits for: use info (the default), debug or trace`,
  );
  process.exit(2);
}
const prefixed =
  (prefix: string): LineHandler =>
  (line, stream) =>
    (stream === 'stdout' ? process.stdout : process.stderr).write(`[${prefix}] ${line}\n`);
const passThrough: LineHandler = (line, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(`${line}\n`);

const server = new DevServer(root, process.env, passThrough, (code) => say(`the server exited (${code}); save a file to start it again`));
const generator = new Generator(root, prefixed('generate'));
// The type check gives way to each cycle (a regeneration, a restart) while it runs.
const giveWay = new GiveWay();
const typecheck = options['no-typecheck'] ? undefined : new Typecheck(root, prefixed('typecheck'), giveWay);
const lint = options['no-lint'] ? undefined : new SpecLint(root, prefixed('lint'));

/** Files the generator has written under src/ and generated/, with what it wrote: while they hold it, their watch events are its own. */
const ownWrites = new Map<string, string>();

/** When each step of a cycle ended (performance.now()), for the line that reports it. */
interface Steps {
  checked?: number;
  serverFiles?: number;
}

/** Settles once the generator's writes of the current cycle are known (ownWrites). */
let generation: Promise<unknown> = Promise.resolve();

/**
 * Generates: the old server stops once the spec has passed, the new one starts once the files it
 * runs on are written (the types are made meanwhile). Resolves with that start, or with undefined
 * when the spec cannot be served.
 */
async function regenerate(steps: Steps, saves: readonly string[]): Promise<{ start: Promise<Started> } | undefined> {
  let start: Promise<Started> | undefined;
  const run = generator.run({
    onValid: () => {
      steps.checked = performance.now();
    },
    onServerFiles: () => {
      steps.serverFiles = performance.now();
      start = server.restart();
    },
  });
  generation = run;
  const outcome = await run;
  if (outcome.type === 'invalid') {
    // Past the server's files, the new server is on its way all the same.
    specProblems = start ? undefined : outcome.problems;
    const kept = server.isRunning ? '; the last good server keeps running' : '';
    const others = saves.filter((file) => !specFiles(SPEC).includes(file)).map((file) => relative(root, file));
    const why = others.length > 0 ? `${others.join(', ')} saved, not served: ` : '';
    say(`${why}openapi.yaml cannot be served${kept}:\n${outcome.problems.map((problem) => `  ${problem}`).join('\n')}`);
    return start && { start };
  }
  specProblems = undefined;
  const { written, scaffolded } = outcome.result;
  for (const file of [...written, ...scaffolded].map((path) => join(root, path))) {
    if (file.startsWith(SRC) || file.startsWith(GENERATED)) ownWrites.set(file, readFileSync(file, 'utf8'));
  }
  if (written.length > 0) say(`generated ${written.join(', ')}`);
  if (scaffolded.length > 0) say(`scaffolded, answering 501 until written: ${scaffolded.join(', ')}`);
  return { start: start ?? server.restart() };
}

/** What has changed since the last cycle began. */
interface Pending {
  /** The spec (or only src/). */
  spec: boolean;
  /** When the first of those saves was seen. */
  since: number;
  /** The files saved (absolute paths). */
  files: string[];
}

/** Why the spec on disk cannot be served, as its last check found; undefined once it can. */
let specProblems: readonly string[] | undefined;

let pending: Pending | undefined;
let cycling = false;
let watched: string[] = [];

/** The spec's files and the generator's own files outside src/ (its change renews the generator). */
async function watchedFiles(): Promise<string[]> {
  const generatorFiles = (await generator.files()).filter((file) => !file.startsWith(SRC));
  return [...new Set([...specFiles(SPEC), ...generatorFiles])];
}

async function updateWatched(): Promise<void> {
  const files = await watchedFiles();
  watcher.unwatch(watched.filter((file) => !files.includes(file)));
  watcher.add(files.filter((file) => !watched.includes(file)));
  watched = files;
}

/** The spec's files as they are now, to tell whether they changed while the generator read them. */
function specText(): string {
  return watched
    .map((file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    })
    .join('\0');
}

/** One cycle: regenerate (after a spec save), restart, lint. Saves meanwhile make one more cycle. */
async function cycle(): Promise<void> {
  if (cycling || !pending) return;
  cycling = true;
  giveWay.restart(true);
  const { spec, since, files } = pending;
  pending = undefined;
  const steps: Steps = {};
  try {
    let start: Promise<Started> | undefined;
    if (spec) {
      const before = specText();
      start = (await regenerate(steps, files))?.start;
      await updateWatched();
      // A save caught half-written (truncated, not yet filled) is read as such, and the watcher may
      // drop the event of its second half: a spec that moved under the generator goes round again.
      if (specText() !== before) pending = { spec: true, since, files };
      if (!start) return;
    }
    const ready = steps.serverFiles ?? performance.now();
    const started = await (start ?? server.restart());
    const seconds = (from: number, to: number) => `${((to - from) / 1000).toFixed(2)} s`;
    const now = performance.now();
    const detail = [
      ...(steps.checked !== undefined ? [`spec checked in ${seconds(since, steps.checked)}`] : []),
      ...(steps.checked !== undefined && steps.serverFiles !== undefined
        ? [`files written in ${seconds(steps.checked, steps.serverFiles)}`]
        : []),
      `server started in ${seconds(ready, now)}`,
    ];
    if ('url' in started) say(`serving ${started.url || 'again'}: ${seconds(since, now)} after the save (${detail.join(', ')})`);
    else if (started.kept)
      say(`the new server stopped before listening (${started.exitCode}), see above; the last good server keeps running: fix and save`);
    else say(`the server stopped before listening (${started.exitCode}); fix and save to start it again`);
    if (spec) void lint?.run();
  } finally {
    cycling = false;
    giveWay.restart(false);
    void cycle();
  }
}

async function saved(file: string): Promise<void> {
  // The generator may be writing this file: its own writes are known once it has reported.
  await generation.catch(() => undefined);
  // One write may be seen as several events (an add, then one change or more): each of them finds
  // the generator's own text, until someone saves something else there.
  const own = ownWrites.get(file);
  if (own !== undefined) {
    try {
      if (readFileSync(file, 'utf8') === own) return;
    } catch {
      // Removed since: a change like any other.
    }
    ownWrites.delete(file);
  }
  const since = pending?.since ?? performance.now();
  await server.saved(file);
  const generatorChanged = (await generator.files()).includes(file);
  if (generatorChanged) generator.renew();
  const files = [...(pending?.files ?? []), file];
  // What the new generator makes may differ: it runs at once. A spec that could not be served is
  // checked again, whatever was saved: a server started on it would not start.
  if (generatorChanged || specFiles(SPEC).includes(file) || specProblems) pending = { spec: true, since, files };
  else pending = { spec: pending?.spec ?? false, since, files };
  void cycle();
}

// A save is taken once its file has kept its size for a moment: an editor's (or a test's) write
// truncates first and fills after, and a restart on the empty file would serve nothing.
const watcher = watch([SRC, GENERATED], { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 40, pollInterval: 10 } });
watcher.on('all', (event, path) => {
  if (event === 'add' || event === 'change' || event === 'unlink') void saved(resolve(path));
});
watcher.on('error', (error) => say(`watching: ${String(error)}`));

let closing = false;
async function close(): Promise<void> {
  if (closing) return;
  closing = true;
  await watcher.close();
  await Promise.all([server.close(), generator.close(), typecheck?.stop(), lint?.stop()]);
  process.exit(0);
}
process.on('SIGINT', () => void close());
process.on('SIGTERM', () => void close());

server.prepare();
await updateWatched();
say(
  `watching ${specFiles(SPEC)
    .map((file) => relative(root, file))
    .join(', ')}, src/ and generated/`,
);
pending = { spec: true, since: performance.now(), files: [] };
void cycle();
