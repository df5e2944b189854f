import { join } from 'node:path';
import { WarmProcess, type LineHandler } from './warm.js';

/** What the server's "listening" line says (JSON logs; pino-pretty's lines carry no url to read). */
function listeningUrl(line: string): string | undefined {
  if (!line.startsWith('{')) return /\blistening\b/.test(line) ? '' : undefined;
  try {
    const entry = JSON.parse(line) as { msg?: string; url?: string };
    return entry.msg === 'listening' ? (entry.url ?? '') : undefined;
  } catch {
    return undefined;
  }
}

/** How a restart ended: the new server listens, or it exited before it could (the last good one still serving if `kept`). */
export type Started = { url: string } | { exitCode: number | null; kept: boolean };

/**
 * The server of npm run dev: one running (src/main.ts through tsx), one warm in waiting. A restart
 * stops the running one without the production drain (SHUTDOWN_DRAIN_MS=0: requests it has read
 * are answered, nothing new is taken) and starts the waiting one, whose packages are loaded already.
 */
export class DevServer {
  private running: WarmProcess | undefined;
  private stopping: Promise<unknown> = Promise.resolve();
  private waiting: Promise<WarmProcess> | undefined;
  private onListening: ((url: string) => void) | undefined;

  constructor(
    private readonly root: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly print: LineHandler,
    /** Told when a server that was listening exits by itself. */
    private readonly onExit: (code: number | null) => void,
  ) {}

  private spawn(): Promise<WarmProcess> {
    return WarmProcess.spawn({
      root: this.root,
      entry: join(this.root, 'src', 'main.ts'),
      // No drain: nothing balances load in front of a development server, and its restart should
      // not wait. (Deployments keep theirs.) Every handler's answer checked against the spec,
      // unless CHECK_RESPONSES=off says otherwise (docs/editing-the-spec.md).
      env: { ...this.env, SHUTDOWN_DRAIN_MS: '0', DEV_LISTEN_GATE: '1', CHECK_RESPONSES: this.env['CHECK_RESPONSES'] || 'on' },
      preloadProject: true,
      onLine: (line, stream) => {
        this.print(line, stream);
        const url = stream === 'stdout' ? listeningUrl(line) : undefined;
        if (url !== undefined) this.onListening?.(url);
      },
    });
  }

  /** Loads the next server's packages now, so that the next restart does not wait for them. */
  prepare(): void {
    this.waiting ??= this.spawn();
  }

  /** A project file was saved: a waiting server that has loaded it already is replaced. */
  async saved(file: string): Promise<void> {
    const waiting = this.waiting;
    if (!waiting || !(await waiting).preloaded.includes(file) || this.waiting !== waiting) return;
    this.waiting = undefined;
    void (await waiting).stop();
    this.prepare();
  }

  /** Whether a server is listening, or starting. */
  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Stops the running server, if any; resolves once it (and any stopped before it) has exited. */
  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running) this.stopping = Promise.all([this.stopping, running.stop()]);
    await this.stopping;
  }

  /**
   * Starts the next server and, once it is about to listen (warm-process.ts), stops the running one
   * and lets it: resolves with its URL once it listens, or with how it ended. One that ends before
   * it would listen (a spec it refuses, a module that does not load, a store without a migration)
   * leaves the running one serving.
   */
  async restart(): Promise<Started> {
    const next = this.waiting ?? this.spawn();
    this.waiting = undefined;
    // The one after it loads its packages meanwhile, not once this one listens: a save soon after
    // this restart (the first ones after a start) then finds it ready rather than waiting for it.
    this.prepare();
    const server = await next;
    let readyToListen!: () => void;
    const gate = new Promise<void>((resolve) => (readyToListen = resolve));
    const listening = new Promise<string>((resolve) => (this.onListening = resolve));
    await server.start((message) => (message as { type?: string }).type === 'ready-to-listen' && readyToListen());
    const exited = server.exited.then((exitCode) => ({ exitCode, kept: this.isRunning }));
    const failed = await Promise.race([gate.then(() => undefined), exited]);
    if (failed) {
      this.onListening = undefined;
      return failed;
    }
    await this.stop();
    server.send({ type: 'listen' });
    const started = await Promise.race([listening.then((url) => ({ url })), server.exited.then((exitCode) => ({ exitCode, kept: false }))]);
    this.onListening = undefined;
    if ('url' in started) {
      this.running = server;
      void server.exited.then((code) => {
        if (this.running !== server) return;
        this.running = undefined;
        this.onExit(code);
      });
    }
    return started;
  }

  /** Stops everything, the waiting process included. */
  async close(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = undefined;
    await Promise.all([this.stop(), waiting?.then((process) => process.stop())]);
  }
}
