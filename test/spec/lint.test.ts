import * as fs from 'node:fs';
import { resolve } from 'node:path';
import { Document, Spectral, type ISpectralDiagnostic, type RulesetDefinition } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { unescapePointerToken, valueAtPointer } from '../../src/contract/spec.js';

// The house rules of .spectral.yaml (functions in spec/lint/functions/), each broken once in a copy
// of openapi.yaml: the lint fails, and its message says what to add.

type Spec = Record<string, unknown>;
type Edit = (spec: Spec) => void;

const SPEC_PATH = resolve('openapi.yaml');
const original = load(fs.readFileSync(SPEC_PATH, 'utf8'), { schema: CORE_SCHEMA }) as Spec;

/** A copy of what the JSON pointer names in openapi.yaml. */
const at = (pointer: string): unknown => structuredClone(valueAtPointer(original, pointer));

function parentOf(spec: Spec, pointer: string): [Record<string, unknown>, string] {
  const slash = pointer.lastIndexOf('/');
  return [valueAtPointer(spec, pointer.slice(0, slash)) as Record<string, unknown>, unescapePointerToken(pointer.slice(slash + 1))];
}

const remove =
  (pointer: string): Edit =>
  (spec) => {
    const [parent, key] = parentOf(spec, pointer);
    delete parent[key];
  };

const set =
  (pointer: string, value: unknown): Edit =>
  (spec) => {
    const [parent, key] = parentOf(spec, pointer);
    parent[key] = value;
  };
let spectral: Spectral;

/**
 * Spectral's loader of YAML rulesets, as its CLI uses it. Imported by a name TypeScript does not
 * follow: its declarations pull in the DOM library, whose fetch and Headers would replace Node's
 * in every file of the project.
 */
async function loadRuleset(path: string): Promise<RulesetDefinition> {
  const loader = '@stoplight/spectral-ruleset-bundler/with-loader';
  const { bundleAndLoadRuleset } = (await import(loader)) as {
    bundleAndLoadRuleset: (path: string, io: { fs: typeof fs; fetch: typeof fetch }) => Promise<RulesetDefinition>;
  };
  return bundleAndLoadRuleset(path, { fs, fetch });
}

beforeAll(async () => {
  spectral = new Spectral();
  spectral.setRuleset(await loadRuleset(resolve('.spectral.yaml')));
});

/** Lints a copy of openapi.yaml, edited: as if it were the file itself, so the ruleset's overrides apply. */
async function lint(edit: Edit = () => undefined): Promise<ISpectralDiagnostic[]> {
  const spec = structuredClone(original);
  edit(spec);
  return spectral.run(new Document(dump(spec, { schema: CORE_SCHEMA, noRefs: true }), Parsers.Yaml, SPEC_PATH));
}

/** What the lint says, but that a component an edit leaves unused is unused (spectral:oas's own rule). */
const findings = (results: ISpectralDiagnostic[]) =>
  results.filter(({ code }) => code !== 'oas3-unused-component').map(({ code, message }) => `${code}: ${message}`);

describe('the lint of openapi.yaml (.spectral.yaml)', () => {
  it('passes the spec as it is: no finding at all', async () => {
    expect(findings(await lint())).toEqual([]);
  });

  it.each([
    [
      'an operation with a body and no 413',
      remove('/paths/~1pets/post/responses/413'),
      "operation-body-responses: POST /pets does not document 413 (it takes a request body): add '413': { $ref: '#/components/responses/PayloadTooLarge' } to its responses",
    ],
    [
      'an operation with a body and no 415',
      remove('/paths/~1pets/post/responses/415'),
      "operation-body-responses: POST /pets does not document 415 (it takes a request body): add '415': { $ref: '#/components/responses/UnsupportedMediaType' } to its responses",
    ],
    [
      'an operation without 401',
      remove('/paths/~1pets/get/responses/401'),
      "operation-auth-responses: GET /pets does not document 401: add '401': { $ref: '#/components/responses/Unauthorized' } to its responses",
    ],
    [
      'an operation without 429',
      remove('/paths/~1store~1orders/get/responses/429'),
      "operation-auth-responses: GET /store/orders does not document 429: add '429': { $ref: '#/components/responses/TooManyRequests' } to its responses",
    ],
    [
      'an operation without 503',
      remove('/paths/~1pets~1{petId}/get/responses/503'),
      "operation-served-responses: GET /pets/{petId} does not document 503: add '503': { $ref: '#/components/responses/ServiceUnavailable' } to its responses",
    ],
    [
      'a 401 that is another shared response',
      set('/paths/~1pets/get/responses/401', { $ref: '#/components/responses/BadRequest' }),
      "operation-auth-responses: GET /pets documents 401 otherwise than the shared response: make it '401': { $ref: '#/components/responses/Unauthorized' }",
    ],
    [
      'an error response written in place',
      set('/paths/~1pets~1{petId}/get/responses/404', at('/components/responses/NotFound')),
      "operation-shared-error-responses: GET /pets/{petId} writes its 404 response in place: define it once under components.responses (or use the one there) and write '404': { $ref: '#/components/responses/NAME' }",
    ],
    [
      'a parameter without an example',
      remove('/components/parameters/Limit/example'),
      'described-parameters: components.parameters.Limit has no example: add `example:`, a value its schema accepts',
    ],
    [
      "an operation's own parameter without a description",
      // The shared path parameter, written in place without its description.
      set('/paths/~1pets~1{petId}/get/parameters/0', { ...(at('/components/parameters/PetIdPath') as object), description: undefined }),
      'described-parameters: parameter petId of GET /pets/{petId} has no description: add `description:`, saying what it is for',
    ],
    [
      'a header without an example',
      remove('/components/headers/RequestId/schema/examples'),
      'described-headers: components.headers.RequestId has no example: add `examples: [...]` to its schema, values its schema accepts',
    ],
    [
      'a response without an example',
      remove('/components/responses/NotFound/content/application~1json/examples'),
      'described-responses: components.responses.NotFound.content.application/json has no application/json example: add `examples:` under content.application/json, each with a `value:`',
    ],
    [
      'a request body without a description',
      remove('/paths/~1pets/post/requestBody/description'),
      'described-request-bodies: the request body of POST /pets has no description: add `description:`, saying what it is for',
    ],
    [
      'a property without examples',
      remove('/components/schemas/Error/properties/message/examples'),
      'described-schemas: components.schemas.Error.properties.message has no examples: add `examples: [...]`, values it accepts',
    ],
    [
      'a schema without a description',
      remove('/components/schemas/Pets/description'),
      'described-schemas: components.schemas.Pets has no description: add `description:`, saying what it is for',
    ],
  ])('fails %s, naming the fix', async (_, edit, finding) => {
    expect(findings(await lint(edit))).toEqual([finding]);
  });

  it('names every error response a new operation lacks, each with the line to add', async () => {
    const results = await lint(
      set('/paths/~1pets~1{petId}/put', {
        ...(at('/paths/~1pets/post') as object),
        operationId: 'replacePet',
        parameters: at('/paths/~1pets~1{petId}/get/parameters'),
        responses: { '200': at('/paths/~1pets~1{petId}/get/responses/200') },
      }),
    );
    const missing = results.filter(({ message }) => message.startsWith('PUT /pets/{petId} does not document'));
    expect(missing.map(({ message }) => /document (\d+)/.exec(message)![1]).sort()).toEqual([
      '400',
      '401',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
  });
});
