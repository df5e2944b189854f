import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: bench/ is plain JavaScript, without declarations.
import { readProfile as readProfileUntyped } from '../../bench/cpuprofile.mjs';

const readProfile = readProfileUntyped as (file: string) => {
  byOwner: Map<string, number>;
  byFunction: Map<string, number>;
  total: number;
};

/** A .cpuprofile as node --cpu-prof writes it: call-tree nodes, the sampled node ids and the time since each sample before. */
function profile(
  nodes: Array<{ id: number; functionName: string; url: string; lineNumber?: number }>,
  samples: number[],
  timeDeltas: number[],
) {
  const file = join(mkdtempSync(join(tmpdir(), 'cpuprofile-')), 'CPU.cpuprofile');
  const tree = nodes.map(({ id, functionName, url, lineNumber = 0 }) => ({
    id,
    callFrame: { functionName, url, lineNumber, columnNumber: 0 },
  }));
  writeFileSync(file, JSON.stringify({ nodes: tree, samples, timeDeltas }));
  return file;
}

describe('readProfile', () => {
  it('adds up self time per function and per owner, and leaves idle time out of the total', () => {
    const file = profile(
      [
        { id: 1, functionName: '(idle)', url: '' },
        { id: 2, functionName: 'handle', url: 'file:///somewhere/node_modules/router/index.js' },
        { id: 3, functionName: 'next', url: 'file:///somewhere/node_modules/router/index.js' },
        { id: 4, functionName: 'emit', url: 'node:events' },
        { id: 5, functionName: '(garbage collector)', url: '' },
      ],
      [1, 2, 3, 3, 4, 5],
      [100, 10, 20, 30, 40, 5],
    );
    const { byOwner, byFunction, total } = readProfile(file);
    expect(total).toBe(105);
    expect(Object.fromEntries(byOwner)).toEqual({ '(idle)': 100, router: 60, 'node core': 40, '(garbage collector)': 5 });
    expect(byFunction.get('next node_modules/router/index.js')).toBe(50);
    expect(byFunction.get('emit node:events')).toBe(40);
  });
});
