import { fork, spawn, type ChildProcess } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { lowerPriority, type GiveWay } from './priority.js';
import type { LineHandler } from './warm.js';

const TYPECHECK_PROCESS = fileURLToPath(new URL('./typecheck-process.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/**
 * Gives way to the server's restarts (the first full type check is some 15 s of CPU), or runs at a
 * low priority throughout without `giveWay`, and prints its lines. (Its own process group, as every
 * child of npm run dev: Ctrl-C reaches npm run dev alone.)
 */
function inBackground(child: ChildProcess, print: LineHandler, giveWay?: GiveWay): ChildProcess {
  const pid = child.pid;
  if (pid !== undefined && giveWay) {
    giveWay.add(pid);
    child.once('exit', () => giveWay.delete(pid));
  } else if (pid !== undefined) lowerPriority(pid);
  for (const stream of ['stdout', 'stderr'] as const) {
    createInterface({ input: child[stream]! }).on('line', (line) => print(line, stream));
  }
  return child;
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** `tsc --noEmit --watch` for as long as npm run dev runs (typecheck-process.ts). */
export class Typecheck {
  private readonly child: ChildProcess;

  constructor(root: string, print: LineHandler, giveWay: GiveWay) {
    this.child = inBackground(
      fork(TYPECHECK_PROCESS, [], { cwd: root, execArgv: ['--import', TSX], stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true }),
      print,
      giveWay,
    );
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}

/**
 * Spectral on openapi.yaml with the project's ruleset (the house rules), after each spec that was
 * served: as `npm run lint:spec` runs it, one finding a line, `file:line:col severity rule message`.
 * Redocly's half of lint:spec has already run, in the generator's checks. A run still going when
 * the spec changes again is stopped.
 */
export class SpecLint {
  private child: ChildProcess | undefined;

  constructor(
    private readonly root: string,
    private readonly print: LineHandler,
  ) {}

  async run(): Promise<void> {
    await this.stop();
    const bin = join(this.root, 'node_modules', '.bin');
    const child = spawn(
      process.execPath,
      ['scripts/run-tool.mjs', 'spectral', 'lint', 'openapi.yaml', '--fail-severity=hint', '--format', 'text'],
      {
        cwd: this.root,
        env: { ...process.env, PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    // At a low priority throughout: its findings are the least urgent, and the next server loads meanwhile.
    this.child = inBackground(child, this.print);
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}
