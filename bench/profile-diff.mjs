#!/usr/bin/env node
// `node bench/profile-diff.mjs REQUESTS A.cpuprofile B.cpuprofile`: where two servers' CPU time per
// request differs, owner by owner and function by function, in µs per request: what B spends more
// than A. REQUESTS is how many requests each profile served (bench/cost.mjs with COST_PROFILE_DIR:
// its warm-up and runs). Idle time is left out.
import { readProfile } from './cpuprofile.mjs';

const [requests, first, second] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
if (!requests || !first || !second) throw new Error('usage: profile-diff.mjs REQUESTS A.cpuprofile B.cpuprofile');
const a = readProfile(first);
const b = readProfile(second);
const perRequest = (time) => time / requests;

function differences(mapA, mapB) {
  const keys = new Set([...mapA.keys(), ...mapB.keys()]);
  keys.delete('(idle)');
  return [...keys]
    .map((key) => [key, perRequest(mapA.get(key) ?? 0), perRequest(mapB.get(key) ?? 0)])
    .sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]));
}
const row = ([key, inA, inB]) =>
  `${inA.toFixed(2).padStart(7)} ${inB.toFixed(2).padStart(7)} ${(inB - inA >= 0 ? '+' : '') + (inB - inA).toFixed(2).padStart(6)}  ${key}`;
const header = `${'A µs'.padStart(7)} ${'B µs'.padStart(7)} ${'B-A'.padStart(7)}`;
process.stdout.write(
  [
    `busy: A ${perRequest(a.total).toFixed(1)} µs per request, B ${perRequest(b.total).toFixed(1)}`,
    '',
    'by owner:',
    header,
    ...differences(a.byOwner, b.byOwner).slice(0, 30).map(row),
    '',
    'by function:',
    header,
    ...differences(a.byFunction, b.byFunction).slice(0, 60).map(row),
    '',
  ].join('\n'),
);
