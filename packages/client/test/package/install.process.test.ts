import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkClientScenario, clientScenarioScript } from '../support/client-scenario.js';
import { packageFile, packClient } from '../support/client-tarball.js';
import { parseSpec, readSpecText, runKeys, startServer, tempDatabaseUrl, type RunningServer } from '../support/pet-store.js';

const run = promisify(execFile);
const version = parseSpec(readSpecText()).info.version;
const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
/** TypeScript's own lib files (lib.es2023.d.ts, ...), which every compilation reads. */
const TYPESCRIPT_LIB = dirname(require.resolve('typescript/lib/lib.d.ts'));

// A project of someone who installed only the tarball: TypeScript in strict mode with browser globals
// and no Node types, checking the package's declarations too (skipLibCheck off).
const TSCONFIG = {
  compilerOptions: {
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: [],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['consumer.ts'],
};

const CONSUMER = `
import { createPetStoreClient, listAllPets, PetStoreApiError, type Pet } from 'petstore-client';

const client = createPetStoreClient({ baseUrl: 'https://api.petstore.example/v1', apiKey: 'psk_example' });

export async function availableNames(): Promise<string[]> {
  const { data, error } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'available' } });
  if (error) return [\`\${error.status} \${error.code}: \${error.message}\`];
  const pets: Pet[] = [data];
  for await (const pet of listAllPets(client, { status: 'available', pageSize: 50 })) pets.push(pet);
  return pets.map((pet) => pet.name);
}

export const isApiError = (error: unknown): boolean => error instanceof PetStoreApiError;

export function neverCalled(): unknown {
  // @ts-expect-error status is the spec's enum: real types came through the package, not any
  return client.GET('/pets', { params: { query: { status: 'lost' } } });
}
`;

describe('npm pack: the tarball installed into an empty project', () => {
  let tarball: string;
  let project: string;
  let installed: string;
  let typecheck: { code: number; output: string };

  beforeAll(async () => {
    tarball = await packClient();
    project = mkdtempSync(join(tmpdir(), 'petstore-consumer-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // --offline: a local tarball with no dependencies needs no registry, and npm must not try one.
    await run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: project });
    installed = join(project, 'node_modules', 'petstore-client');

    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    typecheck = await run(process.execPath, [TSC, '-p', join(project, 'tsconfig.json'), '--listFiles'], { cwd: project }).then(
      ({ stdout }) => ({ code: 0, output: stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
    );
  }, 120_000);

  it(`is petstore-client-${version}.tgz: ESM with declarations, a license, openapi.yaml's version and no dependencies`, () => {
    expect(basename(tarball)).toBe(`petstore-client-${version}.tgz`);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'petstore-client',
      version,
      type: 'module',
      license: 'MIT',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    });
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies'])
      expect(manifest).not.toHaveProperty(field);
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['petstore-client']);
    expect(readFileSync(join(installed, 'dist', 'index.js'), 'utf8')).toBe(readFileSync(packageFile('dist/index.js'), 'utf8'));
    // The vendored declarations keep their MIT notices.
    for (const vendored of ['openapi-fetch', 'openapi-typescript-helpers']) {
      expect(readFileSync(join(installed, 'dist', 'types', 'vendor', vendored, 'LICENSE'), 'utf8')).toMatch(
        /^MIT License\n\nCopyright \(c\)/,
      );
    }
  });

  it('type-checks a strict TypeScript consumer against the package alone', () => {
    expect(typecheck.code, typecheck.output).toBe(0);
    const read = typecheck.output.split('\n').filter((file) => file && !file.startsWith(`${TYPESCRIPT_LIB}/`));
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((file) => !file.startsWith(`${project}/`))).toEqual([]);
    expect(read).toContain(join(installed, 'dist', 'types', 'vendor', 'openapi-fetch', 'index.d.mts'));
  });

  describe('calling the built server', () => {
    let server: RunningServer;
    let apiKey: string;

    beforeAll(async () => {
      const env = { DATABASE_URL: tempDatabaseUrl() };
      apiKey = runKeys(['create', '--account', 'packed'], env).stdout.trim().split('\n').at(-1)!;
      server = await startServer(env);
    });

    afterAll(async () => {
      if (server) expect(await server.stop()).toBe(0);
    });

    it('creates, pages through and reports errors through the installed package', async () => {
      writeFileSync(join(project, 'scenario.mjs'), clientScenarioScript('petstore-client'));
      const { stdout } = await run(process.execPath, ['scenario.mjs', server.baseUrl, apiKey], { cwd: project });
      checkClientScenario(stdout);
    });
  });
});
