import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CLIENT_PACKAGE } from '../../support/client-tarball.js';

const root = CLIENT_PACKAGE.replace(/\/$/, '');
// Lives in the package (in memory only) so that `petstore-client` resolves by self-reference,
// through package.json exports, exactly as it does for a project that installed the package.
const consumerFile = join(root, 'test', 'consumer.virtual.ts');
const consumer = `
import { createPetStoreClient, getPet, listAllPets, type Pet } from 'petstore-client';

const client = createPetStoreClient({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'psk_example' });

export async function names(): Promise<string[]> {
  const { data } = await client.GET('/pets', { params: { query: { status: 'sold' } } });
  const pets: Pet[] = [];
  for await (const pet of listAllPets(client, { pageSize: 50 })) pets.push(pet);
  // @ts-expect-error the status filter is an enum: real types, not any, came through
  await client.GET('/pets', { params: { query: { status: 'lost' } } });
  return [...(data ?? []), ...pets].map((pet) => pet.name);
}

export async function deprecatedCalls() {
  await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
  return getPet(client, 1);
}
`;

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  // A browser project: DOM globals and no Node types.
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  strict: true,
  noEmit: true,
};

function languageService(): ts.LanguageService {
  return ts.createLanguageService({
    getScriptFileNames: () => [consumerFile],
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) =>
      file === consumerFile
        ? ts.ScriptSnapshot.fromString(consumer)
        : ts.sys.fileExists(file)
          ? ts.ScriptSnapshot.fromString(readFileSync(file, 'utf8'))
          : undefined,
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (file) => file === consumerFile || ts.sys.fileExists(file),
    readFile: (file) => (file === consumerFile ? consumer : ts.sys.readFile(file)),
    readDirectory: (...args) => ts.sys.readDirectory(...args),
    directoryExists: (directory) => ts.sys.directoryExists(directory),
    getDirectories: (directory) => ts.sys.getDirectories(directory),
  });
}

describe('the published declarations of petstore-client', () => {
  const service = languageService();

  it('type-check a browser consumer, from dist/ alone', () => {
    const program = service.getProgram()!;
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
    // Every file read, but the consumer and TypeScript's own lib files, is in dist/: openapi-fetch's
    // declarations too, vendored there.
    const typescriptLib = dirname(ts.getDefaultLibFilePath(options));
    const read = program
      .getSourceFiles()
      .map((file) => file.fileName)
      .filter((file) => file !== consumerFile && !file.startsWith(`${typescriptLib}/`));
    expect(read).toContain(join(root, 'dist', 'types', 'vendor', 'openapi-fetch', 'index.d.mts'));
    expect(read.filter((file) => !file.startsWith(join(root, 'dist') + '/'))).toEqual([]);
  });

  it('make editors strike through getPet and client.GET("/pets/{petId}"), and nothing else', () => {
    const deprecated = service
      .getSuggestionDiagnostics(consumerFile)
      .filter((d) => d.reportsDeprecated)
      .map((d) => `${consumer.slice(d.start, d.start + d.length)} @ ${consumer.slice(0, d.start).split('\n').length}`);
    const line = (text: string) => consumer.split('\n').findIndex((l) => l.includes(text)) + 1;
    // A call that fails to type-check is reported against the first overload of GET, the deprecated
    // one, so the erroneous call below its @ts-expect-error is struck through as well.
    expect(deprecated.sort()).toEqual(
      [
        `GET @ ${line("status: 'lost'")}`,
        `GET @ ${line("client.GET('/pets/{petId}'")}`,
        `getPet @ ${line('import {')}`,
        `getPet @ ${line('return getPet(')}`,
      ].sort(),
    );
  });
});
