import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { readContract } from '../../src/contract/read-contract.js';
import { parseSpec } from '../../src/contract/spec.js';
import { CHECKS_WITHOUT_HANDLERS, expectUnimplementedAndRefused, FOREIGN_DOCUMENTS } from '../support/foreign-documents.js';
import { QUOTA_NEVER_REACHED, startServer, tempDatabaseUrl, type RunningServer } from '../support/processes.js';

/**
 * What a new team does with its own document, as docs/starting-from-your-document.md says, on a copy
 * of the project: each of two public documents of other shapes (test/support/foreign-documents.ts)
 * put over openapi.yaml, `npm run generate`, the server started from the copy, and the contract
 * tester held against it: 0 failures, every operation answering 501 in the document's error format
 * until it has a handler.
 */

const require = createRequire(import.meta.url);
type Json = Record<string, unknown>;

/** Every component schema a schema names, itself included: by $ref, and by its x-storage's written and patched. */
function schemasNamedBy(schemas: Record<string, Json>, name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const visit = (value: unknown, key?: string): void => {
    if (Array.isArray(value)) value.forEach((item) => visit(item));
    else if (typeof value === 'string' && key === '$ref') schemasNamedBy(schemas, value.split('/').pop()!, seen);
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  visit(schemas[name]);
  const storage = schemas[name]!['x-storage'] as Json | undefined;
  for (const linked of [storage?.['written'], storage?.['patched']]) if (typeof linked === 'string') schemasNamedBy(schemas, linked, seen);
  return seen;
}

/** A 3.1 schema in 3.0's words: `examples` dropped, `anyOf [X, {type: null}]` as X made nullable. */
function asOpenApi30(value: unknown, schemas: Record<string, Json>): unknown {
  if (Array.isArray(value)) return value.map((item) => asOpenApi30(item, schemas));
  if (value === null || typeof value !== 'object') return value;
  const { examples: _examples, anyOf, ...rest } = value as Json;
  const alternatives = anyOf as Json[] | undefined;
  const kept = alternatives?.filter((alternative) => alternative['type'] !== 'null');
  const nullable = kept !== undefined && kept.length < alternatives!.length;
  const referred = nullable ? schemas[String(kept[0]!['$ref']).split('/').pop()!] : undefined;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, asOpenApi30(item, schemas)]));
  if (nullable) return { ...converted, allOf: kept, type: referred?.['type'], nullable: true };
  return alternatives === undefined ? converted : { ...converted, anyOf: asOpenApi30(alternatives, schemas) };
}

/**
 * The document, with the component schemas behind each x-storage table of the pet store's spec added
 * (the stack's storage still declares them: docs/starting-from-your-document.md, step 1).
 */
function withStoredSchemas(document: Json, petStoreSpec: string): Json {
  const schemas = (parse(petStoreSpec) as { components: { schemas: Record<string, Json> } }).components.schemas;
  const stored = Object.keys(schemas).filter((name) => schemas[name]!['x-storage'] !== undefined);
  const names = new Set(stored.flatMap((name) => [...schemasNamedBy(schemas, name)]));
  const is30 = String(document['openapi']).startsWith('3.0');
  const components = (document['components'] ?? {}) as Json;
  const added = Object.fromEntries([...names].map((name) => [name, is30 ? asOpenApi30(schemas[name], schemas) : schemas[name]]));
  return { ...document, components: { ...components, schemas: { ...(components['schemas'] as Json | undefined), ...added } } };
}

// Per document: a generator run, a server started from source and a contract-test run, on a busy machine.
describe.each(FOREIGN_DOCUMENTS)(
  'a new team starting from a public document: $name (on a copy of the project)',
  { timeout: 180_000 },
  ({ file }) => {
    let copy: string;
    let server: RunningServer;
    let key: string;
    const at = (path: string) => join(copy, path);
    const contract = () => readContract(parseSpec(readFileSync(at('openapi.yaml'), 'utf8')));

    beforeAll(async () => {
      copy = copyProject();
      const document = JSON.parse(readFileSync(require.resolve(file), 'utf8')) as Json;
      writeFileSync(at('openapi.yaml'), stringify(withStoredSchemas(document, readFileSync(at('openapi.yaml'), 'utf8'))));
      const generated = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/generate.ts'], {
        cwd: copy,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
        timeout: 120_000,
        killSignal: 'SIGKILL',
      });
      expect(generated.status, generated.stderr).toBe(0);
      server = await startServer(
        { DATABASE_URL: tempDatabaseUrl(), ...QUOTA_NEVER_REACHED },
        { cwd: copy, args: ['--import', 'tsx', 'src/main.ts'] },
      );
      // The first start makes an account "admin" and prints its key.
      key = server.output.map((line) => /^\s+(psk_\S+)$/.exec(line)?.[1]).find(Boolean)!;
    });
    afterAll(async () => {
      await server?.stop();
      if (copy) removeProjectCopy(copy);
    });

    it('npm run generate scaffolds a handler answering 501 for each of its operations', () => {
      for (const { operation } of contract().operations) {
        const kebab = operation.operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
        expect(readFileSync(at(`src/handlers/${kebab}.ts`), 'utf8')).toContain('not_implemented');
      }
    });

    it('passes the contract tester with 0 failures', async () => {
      const { security } = contract();
      // The tester fills bearer and apiKey schemes with --api-key, and a basic one with --security NAME=ACCOUNT:KEY.
      const basic = security.unmatched.alternatives.flat().filter((scheme) => scheme.kind === 'basic');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          ...['--import', 'tsx', 'packages/contract-tester/src/cli.ts'],
          ...['--spec', 'openapi.yaml', '--base-url', server.baseUrl, '--api-key', key],
          ...basic.flatMap(({ name }) => ['--security', `${name}=admin:${key}`]),
          ...['--checks', CHECKS_WITHOUT_HANDLERS.join(','), '--requests', '100', '--seed', '1'],
        ],
        { cwd: copy, encoding: 'utf8' },
      );
      expect(stdout).toMatch(/\d+ scenarios: \d+ passed, 0 failed, 0 skipped; 0 failures;/);
    });

    it("answers an operation without a handler 501, and a request without credentials 401, in the document's error format", async () => {
      await expectUnimplementedAndRefused(contract(), server.baseUrl, 'admin', key);
    });
  },
);
