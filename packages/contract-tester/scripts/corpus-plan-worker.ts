// A worker of the corpus run (scripts/corpus.mjs): plans one document after another, as
// `--dry-run --max-time S` does, and posts each outcome. The main thread terminates a worker whose
// document outlives its budget (a hang) and starts another for the rest: one process for the
// whole corpus, where a CLI per document would spend most of its time starting up.
import { parentPort } from 'node:worker_threads';
import { RunError, planRun } from '../src/run/runner.js';
import { loadSpec } from '../src/spec/load.js';
import { DeadlineReached, setGenerationDeadline } from '../src/deadline.js';

interface Job {
  id: string;
  path: string;
  maxTime: number;
}

parentPort!.on('message', (job: Job) => void plan(job));

async function plan({ id, path, maxTime }: Job): Promise<void> {
  // The budget runs from here: the main thread's watch starts on this message, not on starting the worker (tsx compiles first).
  parentPort!.postMessage({ started: id });
  const started = performance.now();
  const done = (outcome: Record<string, unknown>) =>
    parentPort!.postMessage({
      id,
      seconds: (performance.now() - started) / 1000,
      rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      ...outcome,
    });
  let document;
  setGenerationDeadline(started + maxTime * 1000);
  try {
    document = await loadSpec(path);
  } catch (error) {
    if (error instanceof DeadlineReached)
      return done({ result: 'refused', reason: `--max-time ${maxTime} s was reached while reading the spec` });
    return done({ result: 'refused', reason: `cannot read the spec: ${(error as Error).message}` });
  } finally {
    setGenerationDeadline(undefined);
  }
  try {
    if (performance.now() > started + maxTime * 1000) throw new RunError(`--max-time ${maxTime} s was reached while reading the spec`);
    const plan = planRun({
      baseUrl: 'http://127.0.0.1:9',
      document,
      requests: 1000,
      seed: 1,
      credentials: { apiKey: 'corpus-key' },
      maxTimeSeconds: maxTime,
      startedAt: started,
    });
    done({
      result: 'planned',
      version: document.openapi,
      operations: plan.tested.length + plan.skipped.length + plan.filteredOut.length,
      planned: plan.tested.length,
      skipped: plan.skipped.length,
      reasons: plan.skipped.map(({ reason }) => reason),
      unexplained: plan.skipped.filter(({ reason }) => !reason.trim()).map(({ operation }) => operation),
      scenarios: plan.scenarios.length,
    });
  } catch (error) {
    if (error instanceof RunError) done({ result: 'refused', reason: error.message });
    else
      done({
        result: 'crashed',
        reason: error instanceof Error ? (error.stack ?? error.message).split('\n').slice(0, 4).join(' | ') : String(error),
      });
  }
}
