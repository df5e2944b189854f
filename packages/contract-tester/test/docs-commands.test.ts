import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_KEY_VARIABLE } from '../src/http/credentials.js';

const ROOT = new URL('../../../', import.meta.url);

/** The lines of a document that run the tester through npm. */
const npmRuns = (path: string) =>
  readFileSync(new URL(path, ROOT), 'utf8')
    .split('\n')
    .filter((line) => line.includes('npm run contract-test'));

describe("the docs' contract-test commands", () => {
  it("never put a secret on npm's command line, which npm prints, and name the variable the tester reads", () => {
    const readme = npmRuns('README.md');
    const guide = npmRuns('docs/contract-testing.md');
    expect(readme.length).toBeGreaterThan(0);
    expect(guide.length).toBeGreaterThan(0);
    for (const line of [...readme, ...guide]) expect(line).not.toMatch(/--api-key|--auth\b|--security/);
    expect(readme.some((line) => line.includes(`${API_KEY_VARIABLE}=`))).toBe(true);
    expect(readFileSync(new URL('docs/contract-testing.md', ROOT), 'utf8')).toContain(`export ${API_KEY_VARIABLE}=`);
  });
});
