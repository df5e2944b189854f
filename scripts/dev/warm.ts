import { fork, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleGraph, type ModuleGraph } from './preload.js';

const WARM_PROCESS = fileURLToPath(new URL('./warm-process.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** A line a child printed, and where. */
export type LineHandler = (line: string, stream: 'stdout' | 'stderr') => void;

export interface WarmOptions {
  root: string;
  /** The module it will run: its packages are loaded ahead. */
  entry: string;
  env: NodeJS.ProcessEnv;
  onLine: LineHandler;
  /**
   * Also load ahead the project's modules that import nothing under generated/: a spec save
   * cannot change them, and a save of one makes the process stale (`preloaded`).
   */
  preloadProject?: boolean;
}

/**
 * A Node process (TypeScript through tsx) with the packages of one module loaded ahead, waiting to
 * run that module (warm-process.ts). Starting it then costs the project's own modules only.
 */
export class WarmProcess {
  readonly child: ChildProcess;
  /** Once the packages are loaded. */
  readonly ready: Promise<void>;
  /** Its exit code (null after a signal). */
  readonly exited: Promise<number | null>;
  private readonly entry: string;
  /** The project's files it has loaded ahead: one of them saved, it is stale. */
  readonly preloaded: readonly string[];

  private constructor(
    options: WarmOptions,
    /** What the module it will run is made of. */
    readonly graph: ModuleGraph,
  ) {
    this.entry = pathToFileURL(options.entry).href;
    this.preloaded = options.preloadProject ? graph.independentOfGenerated.filter((file) => file !== options.entry) : [];
    this.child = fork(WARM_PROCESS, [], {
      cwd: options.root,
      env: { ...options.env, DEV_PRELOAD: JSON.stringify([...graph.packages, ...this.preloaded.map((file) => pathToFileURL(file).href)]) },
      execArgv: ['--import', TSX],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group: Ctrl-C reaches npm run dev alone, which stops each child once.
      detached: true,
    });
    for (const stream of ['stdout', 'stderr'] as const) {
      createInterface({ input: this.child[stream]! }).on('line', (line) => options.onLine(line, stream));
    }
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.ready = new Promise((resolve, reject) => {
      this.child.once('message', () => resolve());
      void this.exited.then((code) => reject(new Error(`exited (${code}) while loading its packages`)));
    });
    // Nobody waits on `ready` when the process is stopped unused.
    this.ready.catch(() => undefined);
  }

  static async spawn(options: WarmOptions): Promise<WarmProcess> {
    return new WarmProcess(options, await moduleGraph(options.root, options.entry));
  }

  /** Runs the module; its messages go to `onMessage`. */
  async start(onMessage: (message: unknown) => void = () => undefined): Promise<void> {
    await this.ready;
    this.child.on('message', onMessage);
    this.child.send({ entry: this.entry });
  }

  /** A message to the module it runs. */
  send(message: unknown): void {
    this.child.send(message as object);
  }

  /** Sends a signal, and resolves once the process has exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
