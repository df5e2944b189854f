import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REACHES } from '../../../src/http/internals/index.js';
import { modules } from '../../support/workspaces.js';

const FOLDER = 'src/http/internals';

describe('the internals module', () => {
  it('lists every module of its folder as a reach, and each has its guard test', () => {
    const files = readdirSync(FOLDER)
      .filter((file) => file !== 'index.ts')
      .map((file) => file.replace(/\.ts$/, ''));
    expect(Object.keys(REACHES).sort()).toEqual(files.sort());
    expect(files.filter((name) => !existsSync(join('test/http/internals', `${name}.test.ts`)))).toEqual([]);
  });

  it('holds every reach of src/ into a private part (_handle, _httpMessage, a dist/ file)', () => {
    const outside = modules('src').filter(
      (module) => !module.startsWith(`${FOLDER}/`) && /\b_handle\b|_httpMessage|\/dist\//.test(readFileSync(module, 'utf8')),
    );
    expect(outside).toEqual([]);
  });
});
