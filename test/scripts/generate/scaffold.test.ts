import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handlerPath, kebabCase } from '../../../scripts/generate/scaffold.js';
import { copyProject, removeProjectCopy } from '../../../scripts/project-copy.js';
import { withReplacePet } from '../../support/new-operation.js';
import { startServer, tempDatabaseUrl } from '../../support/processes.js';

describe('kebabCase and handlerPath', () => {
  it.each([
    ['listStoreOrders', 'list-store-orders'],
    ['getPetByID', 'get-pet-by-id'],
    ['getHTTPStatus', 'get-http-status'],
    ['pets_list2', 'pets-list2'],
  ])('%s → %s', (operationId, kebab) => {
    expect(kebabCase(operationId)).toBe(kebab);
    expect(handlerPath(operationId)).toBe(`src/handlers/${kebab}.ts`);
  });
});

const SCAFFOLD = ['src/handlers/replace-pet.ts', 'test/handlers/replace-pet.test.ts', 'test/http/app/replace-pet.test.ts'];

// A type check and a test run of a whole project each: minutes on a busy machine.
describe('a new operation in openapi.yaml, scaffolded by npm run generate (on a copy of the project)', { timeout: 300_000 }, () => {
  let copy: string;
  // Each run is given less than the test's timeout, so that one that hangs fails with what it printed.
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, args, {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, ...env },
      timeout: 240_000,
      killSignal: 'SIGKILL',
    });
  const generate = () => run(['node_modules/tsx/dist/cli.mjs', 'scripts/generate.ts']);
  const read = (file: string) => readFileSync(join(copy, file), 'utf8');

  beforeAll(() => {
    copy = copyProject();
    writeFileSync(join(copy, 'openapi.yaml'), withReplacePet(read('openapi.yaml')));
  });
  afterAll(() => removeProjectCopy(copy));

  it('writes the handler, its two tests and the registration; typecheck then passes', () => {
    const generated = generate();
    expect(generated.stderr).toContain(`scaffolded (answering 501 until written): ${SCAFFOLD.join(', ')}`);
    expect(generated.status).toBe(0);
    expect(read('src/handlers/index.ts')).toContain('replacePet: replacePet(deps),');
    const typecheck = run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
    expect(typecheck.stdout).toBe('');
    expect(typecheck.status).toBe(0);
  });

  it('serves it from the spec (validated, documented) with 501 and the Error object naming the operation', async () => {
    const server = await startServer({ DATABASE_URL: tempDatabaseUrl() }, { cwd: copy, args: ['--import', 'tsx', 'src/main.ts'] });
    try {
      const key = server.output.map((line) => /^\s+(psk_\S+)$/.exec(line)?.[1]).find(Boolean);
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      const url = `${server.baseUrl}/pets/1`;
      const answer = await fetch(url, { method: 'PUT', headers, body: '{"name":"Rex","categoryId":3}' });
      expect(answer.status).toBe(501);
      expect(await answer.json()).toEqual({
        code: 'not_implemented',
        status: 501,
        message: 'PUT /v1/pets/{petId} is not implemented yet.',
      });
      const invalid = await fetch(url, { method: 'PUT', headers, body: '{"categoryId":3}' });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toEqual({ code: 'validation_failed', status: 400, message: 'Invalid request: body.name is required.' });
      const published = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { paths: Record<string, object> };
      expect(published.paths['/pets/{petId}']).toHaveProperty('put.operationId', 'replacePet');
    } finally {
      await server.stop();
    }
  });

  it('scaffolds tests that pass', () => {
    // The copy's own vitest, on the scaffolded files only, with the PostgreSQL server of this run
    // (its global setup then starts none) and without the build of dist/ they do not use.
    writeFileSync(
      join(copy, 'vitest.scaffold.config.ts'),
      `import base from './vitest.config.ts';
export default { ...base, test: { ...base.test, globalSetup: ['test/support/postgres-global-setup.ts'] } };
`,
    );
    const vitest = run(['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.scaffold.config.ts', ...SCAFFOLD.slice(1)], {
      TEST_DATABASE_URL: inject('postgresAdminUrl'),
      NO_COLOR: '1',
    });
    const output = vitest.stdout + vitest.stderr;
    expect(vitest.signal, output).toBeNull();
    expect(output).toMatch(/Test Files\s+2 passed/);
    expect(vitest.status).toBe(0);
  });

  it('changes nothing when run again, and never overwrites a scaffolded file someone has edited', () => {
    appendFileSync(join(copy, SCAFFOLD[0]!), '// being written\n');
    const before = [...SCAFFOLD, 'src/handlers/index.ts', 'generated/contract.ts'].map(read);
    const again = generate();
    expect(again.stderr).toMatch(/^wrote nothing; unchanged: /);
    expect(again.stderr).not.toContain('scaffolded');
    expect([...SCAFFOLD, 'src/handlers/index.ts', 'generated/contract.ts'].map(read)).toEqual(before);
    expect(read(SCAFFOLD[0]!)).toContain('// being written');
  });
});
