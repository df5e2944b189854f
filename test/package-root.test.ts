import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/package-root.js';

describe('PACKAGE_ROOT', () => {
  it('is the folder of package.json and openapi.yaml, found from the module', () => {
    expect(PACKAGE_ROOT).toBe(resolve('.'));
    expect(existsSync(join(PACKAGE_ROOT, 'openapi.yaml'))).toBe(true);
  });
});
