// `npm run dev:measure [-- --rounds N]`: how long npm run dev takes from a save of openapi.yaml to
// the new contract being served, for a one-line change. On a copy of the project (this one is left
// alone), it starts npm run dev as a user would (type check and lint on), then saves PetName's
// maxLength alternately as 40 and 100, and times each save until both /openapi.json shows the new
// limit and validation applies it: a createPet with a 45-character name and an unknown member is
// refused either way, its message naming the name's length only under 40. (A body that passes would
// time the first write too, which waits for the new server's SQLite writer thread to start.) Each
// round starts once the previous one's background work (type check, lint) has reported, as after a
// pause in typing. docs/editing-the-spec.md has the figures.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startDev, type DrivenDev } from './dev/drive.js';
import { copyProject, removeProjectCopy } from './project-copy.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' } } });
const rounds = Number(values.rounds);
const LIMIT = /(PetName:\n(?: {6}.*\n)*? {6}maxLength: )(\d+)/;
const NAME = 'N'.repeat(45);

/** Whether the server answers with the contract whose PetName maxLength is `limit`, in both ways. */
async function serves(dev: DrivenDev, limit: number): Promise<boolean> {
  try {
    const published = (await (await fetch(new URL('/openapi.json', dev.baseUrl))).json()) as {
      components: { schemas: { PetName: { maxLength: number } } };
    };
    if (published.components.schemas.PetName.maxLength !== limit) return false;
    const refused = await fetch(`${dev.baseUrl}/pets`, {
      method: 'POST',
      headers: { Authorization: dev.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: NAME, categoryId: 1, unknown: true }),
    });
    const { message } = (await refused.json()) as { message: string };
    const tooLong = NAME.length > limit;
    return refused.status === 400 && message.includes(`body.name must NOT have more than ${limit} characters`) === tooLong;
  } catch {
    return false; // between two servers: nothing listens for a moment
  }
}

const copy = copyProject();
const spec = join(copy, 'openapi.yaml');
const dev = await startDev(copy);
try {
  await dev.waitForLine(/^\[typecheck\] Found \d+ errors?/);
  const results: Array<{ seconds: number; reported: string }> = [];
  for (let round = 0; round < rounds; round += 1) {
    const limit = round % 2 === 0 ? 40 : 100;
    const from = dev.lines.length;
    const started = performance.now();
    writeFileSync(spec, readFileSync(spec, 'utf8').replace(LIMIT, `$1${limit}`));
    while (!(await serves(dev, limit))) await new Promise((resolve) => setTimeout(resolve, 10));
    const seconds = (performance.now() - started) / 1000;
    const reported = (await dev.waitForLine(/^\[dev\] serving /, from)).replace(/^\[dev\] serving \S+ /, '');
    results.push({ seconds, reported });
    process.stdout.write(
      `maxLength ${String(limit).padStart(3)}: served ${seconds.toFixed(2)} s after the save; npm run dev: ${reported}\n`,
    );
    // The lint runs after every spec save; the type check only when a generated file changed.
    await dev.waitForLine(/^\[lint\] /, from);
    const recheck = dev.lines.findIndex((line, index) => index >= from && /^\[typecheck\] File change detected/.test(line));
    if (recheck !== -1) await dev.waitForLine(/^\[typecheck\] Found \d+ errors?/, recheck);
  }
  const sorted = results.map(({ seconds }) => seconds).sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  process.stdout.write(
    `${rounds} saves: median ${median.toFixed(2)} s, min ${sorted[0]!.toFixed(2)} s, max ${sorted.at(-1)!.toFixed(2)} s ` +
      `(${availableParallelism()} CPUs, load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')})\n`,
  );
} finally {
  await dev.stop();
  removeProjectCopy(copy);
}
