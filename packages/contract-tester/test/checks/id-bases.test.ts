import { describe, expect, it } from 'vitest';
import { DOCUMENT_URI, refsAgainstDocument } from '../../src/checks/id-bases.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { parseSpec } from '../../src/spec/load.js';
import { observed } from '../support/observed-response.js';
import { PET_ID, refInsideIdSpec } from '../support/semantics/schema-ids.js';

const petProperties = (document: ReturnType<typeof refInsideIdSpec>) => document.components.schemas.Pet.properties;

describe('the base of a `$ref` inside an `$id`', () => {
  it('points a `$ref` that names nothing in its `$id` but a schema of the document at the document, with a warning', () => {
    const document = refInsideIdSpec();
    const warnings = refsAgainstDocument(document);
    expect(petProperties(document)['tag']).toEqual({ $ref: `${DOCUMENT_URI}#/components/schemas/Tag` });
    expect(warnings).toEqual([
      `the $ref #/components/schemas/Tag at #/components/schemas/Pet/properties/tag, inside the schema #/components/schemas/Pet whose $id is ${PET_ID}, names nothing in that schema: read against the document, as most OpenAPI tools read it`,
    ]);
  });

  it("leaves a `$ref` the `$id`'s schema holds, one that names nothing anywhere, and those outside any `$id`", () => {
    const document = refInsideIdSpec({ $ref: '#/components/schemas/Nowhere' });
    expect(refsAgainstDocument(document)).toEqual([]);
    expect(petProperties(document)['self']).toEqual({ $ref: '#/properties/name' });
    expect(petProperties(document)['tag']).toEqual({ $ref: '#/components/schemas/Nowhere' });
    expect(document.paths['/pets'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Pet',
    });
  });

  it('reads the `$ref`s of a checked document so: against the document where the `$id` names nothing, against the `$id` where it does', () => {
    const checker = new ContractChecker(parseSpec(JSON.stringify(refInsideIdSpec())), { basePath: '' });
    expect(checker.warnings).toHaveLength(1);
    expect(checker.violations(observed({ url: '/pets', body: { name: 'Rex', tag: { label: 'a' }, self: 'x' } }))).toEqual([]);
    expect(checker.violations(observed({ url: '/pets', body: { name: 'Rex', tag: {} } })).join('\n')).toMatch(/label/);
    // A `$ref` the `$id`'s own schema holds is read there, as JSON Schema says.
    expect(checker.violations(observed({ url: '/pets', body: { name: 'Rex', self: 1 } })).join('\n')).toMatch(/self/);
  });
});
