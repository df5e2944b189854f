import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from '../../scripts/generate.js';
import { SpecProblems } from '../../scripts/generate/spec-check.js';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';

describe('npm run generate, on a copy of the project', () => {
  let copy: string;
  beforeEach(() => {
    copy = copyProject();
  });
  afterEach(() => removeProjectCopy(copy));

  const spec = () => join(copy, 'openapi.yaml');
  const mtimes = (files: string[]) => files.map((file) => statSync(join(copy, file)).mtimeMs);

  /** openapi.yaml with `line` inserted after the first line that is exactly `after`; returns the new line's number. */
  function insertLine(after: string, line: string): number {
    const lines = readFileSync(spec(), 'utf8').split('\n');
    const index = lines.indexOf(after);
    expect(index, `openapi.yaml has no line ${JSON.stringify(after)}`).toBeGreaterThanOrEqual(0);
    lines.splice(index + 1, 0, line);
    writeFileSync(spec(), lines.join('\n'));
    return index + 2;
  }

  async function problemsOf(): Promise<readonly string[]> {
    const failure: unknown = await generate({ root: copy }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SpecProblems);
    return (failure as SpecProblems).problems;
  }

  it('writes nothing when everything is current: src/handlers/index.ts is what it makes from the spec', async () => {
    const result = await generate({ root: copy });
    expect(result.written, 'stale: run `npm run generate` and commit the result').toEqual([]);
    expect(result.scaffolded).toEqual([]);
    expect(result.unchanged).toContain('src/handlers/index.ts');
    expect(result.unchanged).toContain('generated/contract.ts');
  });

  it('deletes a generated handler whose operation the spec no longer has, and only that', async () => {
    const stale = join(copy, 'generated', 'handlers', 'get-animal.ts');
    writeFileSync(stale, 'export const getAnimal = undefined;\n');
    const result = await generate({ root: copy });
    expect(result.removed).toEqual(['generated/handlers/get-animal.ts']);
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(join(copy, 'generated', 'handlers'))).toEqual(readdirSync(join('generated', 'handlers')));
    expect((await generate({ root: copy })).removed).toEqual([]);
  });

  it('writes only the files whose content changes, leaving the others untouched', async () => {
    const untouched = ['generated/contract.ts', 'generated/client-deprecations.ts', 'src/handlers/index.ts'];
    const before = mtimes(untouched);
    // A description reaches the types' comments only.
    writeFileSync(
      spec(),
      readFileSync(spec(), 'utf8').replace('description: Maximum number of items returned.', 'description: At most this many.'),
    );
    const result = await generate({ root: copy });
    expect(result.written).toEqual(['generated/openapi.d.ts']);
    expect(mtimes(untouched)).toEqual(before);
    expect(readFileSync(join(copy, 'generated/openapi.d.ts'), 'utf8')).toContain('At most this many.');
  });

  it.each([
    ['an indentation the YAML parser refuses', '     summary: one space short', 'bad indentation of a mapping entry'],
    ['a key written twice', '      operationId: again', 'duplicated mapping key'],
  ])('names the file and line of %s, and writes nothing', async (_, line, reason) => {
    const before = mtimes(['generated/contract.ts', 'generated/openapi.d.ts']);
    const at = insertLine('      operationId: listPets', line);
    expect(await problemsOf()).toEqual([expect.stringMatching(new RegExp(`^openapi\\.yaml:${at}:\\d+: ${reason}`))]);
    expect(mtimes(['generated/contract.ts', 'generated/openapi.d.ts'])).toEqual(before);
  });

  it('names the file and line of what Redocly finds', async () => {
    const at = insertLine("        '400':", "          $ref: '#/components/responses/NoSuchResponse'");
    // The 400's own $ref, now on the line after: the inserted one takes its place.
    writeFileSync(spec(), readFileSync(spec(), 'utf8').split('\n').toSpliced(at, 1).join('\n'));
    expect(await problemsOf()).toEqual([`openapi.yaml:${at}:11: Can't resolve $ref (no-unresolved-refs)`]);
  });

  it('holds a spec to what generate needs, not to the house style redocly.yaml adds for npm run lint:spec', async () => {
    // An unused component and a schema without description or example: findings of the house rules
    // only; and a webhook, which is the client's to serve, so no handler or registry entry of ours.
    insertLine('  schemas:', '    Unused: { type: object }');
    const webhook = [
      'webhooks:',
      '  petAdopted:',
      '    post:',
      '      operationId: petAdopted',
      "      responses: { '204': { description: Received. } }",
    ];
    writeFileSync(spec(), readFileSync(spec(), 'utf8').replace(/^components:$/m, `${webhook.join('\n')}\ncomponents:`));
    const result = await generate({ root: copy });
    expect(result.written).toEqual(['generated/openapi.d.ts']);
    expect(result.scaffolded).toEqual([]);
    expect(readFileSync(join(copy, 'generated/openapi.d.ts'), 'utf8')).toContain('petAdopted');
  });

  it('refuses, naming the file, a spec the server would refuse to start on', async () => {
    writeFileSync(spec(), readFileSync(spec(), 'utf8').replace(/^x-max-request-body-bytes: \d+$/m, 'x-max-request-body-bytes: 0'));
    expect(await problemsOf()).toEqual(['openapi.yaml: x-max-request-body-bytes must be a positive integer']);
  });
});
