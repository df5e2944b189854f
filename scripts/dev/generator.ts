import { join } from 'node:path';
import type { GenerateReport } from './generate-worker.js';
import { WarmProcess, type LineHandler } from './warm.js';

export type GenerateOutcome = Extract<GenerateReport, { type: 'generated' | 'invalid' }>;

/** What a run tells as it goes: the spec has passed; the files the server runs on are written. */
export interface GenerateSteps {
  onValid(): void;
  onServerFiles(): void;
}

/**
 * npm run generate, kept running for npm run dev (generate-worker.ts): its code loaded and compiled
 * once, not on every save. Renewed when one of the project's files it is made of changes.
 */
export class Generator {
  private worker: Promise<WarmProcess>;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly print: LineHandler,
  ) {
    this.worker = this.spawn();
  }

  private async spawn(): Promise<WarmProcess> {
    const worker = await WarmProcess.spawn({
      root: this.root,
      entry: join(this.root, 'scripts', 'dev', 'generate-worker.ts'),
      env: process.env,
      onLine: this.print,
    });
    await worker.start((message) => this.onReport?.(message as GenerateReport));
    return worker;
  }

  private onReport: ((report: GenerateReport) => void) | undefined;

  /** The project's files the generator is made of (absolute paths). */
  async files(): Promise<string[]> {
    return (await this.worker).graph.files;
  }

  /** Generates, telling each step as it ends. */
  async run(steps: GenerateSteps): Promise<GenerateOutcome> {
    const worker = await this.worker;
    const outcome = new Promise<GenerateOutcome>((resolve) => {
      this.onReport = (report) => {
        if (report.type === 'valid') steps.onValid();
        else if (report.type === 'server-files') steps.onServerFiles();
        else resolve(report);
      };
      void worker.exited.then((code) => resolve({ type: 'invalid', problems: [`npm run generate stopped (${code}): see above`] }));
    });
    worker.send({ type: 'generate' });
    this.running = outcome;
    return outcome;
  }

  /** A new generator, on the project's files as they are now (the current run finishes first). */
  renew(): void {
    const previous = this.worker;
    const running = this.running;
    this.worker = running.then(async () => {
      await (await previous).stop();
      return this.spawn();
    });
  }

  async close(): Promise<void> {
    await (await this.worker).stop();
  }
}
