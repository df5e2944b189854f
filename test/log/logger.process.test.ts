import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('the logger, in a process of its own', () => {
  it('stops logging, not the process, when the reader of its stdout goes away', async () => {
    // Keeps writing lines to stdout after the reader has closed it, then says so on stderr.
    const child = withDestinationOnStdout(`let n = 0;
const timer = setInterval(() => {
  for (let i = 0; i < 100; i++) destination.write('{"n":' + n++ + '}\\n');
  if (n >= 20000) { clearInterval(timer); process.stderr.write('wrote ' + n); }
}, 1);`);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The reader takes the first lines, then goes away.
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).toBe('wrote 20000');
    expect(code).toBe(0);
  });

  it('writes the lines it still holds when the process exits', async () => {
    // Lines written in one turn, the first still being written and the rest held, then an exit.
    const child = withDestinationOnStdout(`for (let n = 0; n < 5000; n++) destination.write('{"n":' + n + '}\\n');
process.exit(0);`);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
    const written = stdout.split('\n').filter(Boolean);
    expect(new Set(written)).toEqual(new Set(Array.from({ length: 5000 }, (_, n) => `{"n":${n}}`)));
    expect(written).toHaveLength(5000);
  });
});

/** A process that runs `body` with `destination`, the default log destination on its stdout; stdout and stderr piped here. */
function withDestinationOnStdout(body: string) {
  const script = join(mkdtempSync(join(tmpdir(), 'log-')), 'writer.ts');
  const logger = fileURLToPath(new URL('../../src/log/logger.ts', import.meta.url));
  writeFileSync(script, `import { logDestination } from ${JSON.stringify(logger)};\nconst destination = logDestination(1);\n${body}\n`);
  return spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}
