import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-root.js';
import { writerThreadFromSource } from '../../../src/storage/sqlite/writer-source.js';

describe("the writer thread's code, from source", () => {
  it('is one file under node_modules/.cache, made once per process: the src/ modules bundled in, packages imported', () => {
    const file = writerThreadFromSource();
    expect(file.startsWith(join(PACKAGE_ROOT, 'node_modules', '.cache', 'petstore', 'writer-thread-'))).toBe(true);
    expect(writerThreadFromSource()).toBe(file);
    const code = readFileSync(file, 'utf8');
    expect(code).toMatch(/from ["']better-sqlite3["']/);
    expect(code).not.toMatch(/from ["']\.\.?\//);
    expect(code).not.toContain('tsx');
  });

  it('starts as a thread with no loader of its own (plain JavaScript): a bad store fails in the thread, not at load', async () => {
    const worker = new Worker(writerThreadFromSource(), { workerData: { path: join(PACKAGE_ROOT, 'no-such-dir', 'x.db') } });
    const error = await new Promise<Error>((resolve) => worker.once('error', resolve));
    expect(error.message).toMatch(/unable to open database file|directory does not exist/i);
  });
});
