// `npm run dev:measure [-- --rounds N] [--save spec|handler]`: how long npm run dev takes from a save
// to its being served, for a one-line change. On a copy of the project (this one is left alone), it
// starts npm run dev as a user would (type check and lint on), then, round after round:
// - spec (the default): saves PetName's maxLength alternately as 40 and 100, and times each save
//   until both /openapi.json shows the new limit and validation applies it: a createPet with a
//   45-character name and an unknown member is refused either way, its message naming the name's
//   length only under 40. (A body that passes would time the first write too, which waits for the
//   new server's SQLite writer thread to start.)
// - handler: saves src/handlers/get-pet.ts with its 404 naming another id, and times each save
//   until GET /pets/{an absent id} answers with that id.
// The first round starts as soon as npm run dev serves, its first type check and lint still running
// (the first saves after a start); each next one once the previous one's background work (type
// check, lint) has reported, as after a pause in typing. docs/editing-the-spec.md has the figures.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startDev, type DrivenDev } from './dev/drive.js';
import { copyProject, removeProjectCopy } from './project-copy.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' }, save: { type: 'string', default: 'spec' } } });
const rounds = Number(values.rounds);
if (values.save !== 'spec' && values.save !== 'handler') throw new Error(`--save spec or --save handler, not ${values.save}`);
const HANDLER = join('src', 'handlers', 'get-pet.ts');
const NOT_FOUND = /apiError\('pet_not_found', \{ petId[^}]*\}\)/;
/** An id no pet has in the copy's fresh store. */
const ABSENT = 999_999;
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

/** Whether getPet's 404 names `id`, as the handler saved in its round does. */
async function servesHandler(dev: DrivenDev, id: number): Promise<boolean> {
  try {
    const res = await fetch(`${dev.baseUrl}/pets/${ABSENT}`, { headers: { Authorization: dev.authorization } });
    return ((await res.json()) as { message: string }).message === `No pet with id ${id}.`;
  } catch {
    return false; // between two servers: nothing listens for a moment
  }
}

/** One round's save, and whether it is served yet. */
function change(round: number): { label: string; save: () => void; served: (dev: DrivenDev) => Promise<boolean> } {
  if (values.save === 'handler') {
    const id = 1000 + round;
    const file = join(copy, HANDLER);
    return {
      label: `${HANDLER} (round ${round})`,
      save: () => writeFileSync(file, readFileSync(file, 'utf8').replace(NOT_FOUND, `apiError('pet_not_found', { petId: ${id} })`)),
      served: (dev) => servesHandler(dev, id),
    };
  }
  const limit = round % 2 === 0 ? 40 : 100;
  return {
    label: `maxLength ${String(limit).padStart(3)}`,
    save: () => writeFileSync(spec, readFileSync(spec, 'utf8').replace(LIMIT, `$1${limit}`)),
    served: (dev) => serves(dev, limit),
  };
}

const copy = copyProject();
const spec = join(copy, 'openapi.yaml');
const dev = await startDev(copy);
try {
  const results: Array<{ seconds: number; reported: string }> = [];
  for (let round = 0; round < rounds; round += 1) {
    const { label, save, served } = change(round);
    const from = dev.lines.length;
    const started = performance.now();
    save();
    while (!(await served(dev))) await new Promise((resolve) => setTimeout(resolve, 10));
    const seconds = (performance.now() - started) / 1000;
    const reported = (await dev.waitForLine(/^\[dev\] serving /, from)).replace(/^\[dev\] serving \S+ /, '');
    results.push({ seconds, reported });
    process.stdout.write(`${label}: served ${seconds.toFixed(2)} s after the save; npm run dev: ${reported}\n`);
    // The lint runs after every spec save; the type check when a generated file or src/ changed.
    if (values.save === 'spec') await dev.waitForLine(/^\[lint\] /, from);
    const recheck = dev.lines.findIndex((line, index) => index >= from && /^\[typecheck\] File change detected/.test(line));
    if (recheck !== -1) await dev.waitForLine(/^\[typecheck\] Found \d+ errors?/, recheck);
  }
  const sorted = results.map(({ seconds }) => seconds).sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  process.stdout.write(
    `${rounds} saves of ${values.save === 'spec' ? 'openapi.yaml' : HANDLER}: median ${median.toFixed(2)} s, min ${sorted[0]!.toFixed(2)} s, max ${sorted.at(-1)!.toFixed(2)} s ` +
      `(${availableParallelism()} CPUs, load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')})\n`,
  );
} finally {
  await dev.stop();
  removeProjectCopy(copy);
}
