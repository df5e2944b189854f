import { mkdtempSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeIfChanged } from '../../../scripts/generate/write-if-changed.js';

describe('writeIfChanged', () => {
  it('writes a new file and a changed one, and leaves one whose content is the same untouched', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'petstore-write-')), 'module.ts');
    expect(writeIfChanged(path, 'one')).toBe(true);
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(path, past, past);
    expect(writeIfChanged(path, 'one')).toBe(false);
    expect(statSync(path).mtime).toEqual(past);
    expect(writeIfChanged(path, 'two')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('two');
  });
});
