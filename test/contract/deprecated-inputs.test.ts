import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { readDeprecatedInputs } from '../../src/contract/deprecated-inputs.js';
import { listOperations, type OpenApiDocument, type SchemaObject } from '../../src/contract/spec.js';

const SINCE = '2026-12-01T00:00:00Z';
const marked = { deprecated: true, 'x-deprecation': { deprecatedAt: SINCE } };

/** openapi.yaml with listPets' `status`, the `If-Match` header and PetPatch's `name` (beside a `$ref`) deprecated. */
function deprecating(): OpenApiDocument {
  const document = structuredClone(loadContract().document);
  const parameters = document.components['parameters'] as Record<string, Record<string, unknown>>;
  for (const parameter of Object.values(parameters)) {
    if (parameter['name'] === 'status' || parameter['name'] === 'If-Match') Object.assign(parameter, marked);
  }
  const properties = document.components.schemas['PetPatch']!['properties'] as Record<string, SchemaObject>;
  properties['name'] = { ...properties['name'], ...marked };
  return document;
}

describe('readDeprecatedInputs', () => {
  const inputs = readDeprecatedInputs(deprecating(), listOperations(deprecating()));
  const fields = (operationId: string) => inputs.get(operationId)?.map(({ field }) => field);

  it('finds deprecated query and header parameters and body properties, per operation that has them', () => {
    expect(fields('listPets')).toEqual(['query.status']);
    expect(fields('updatePet')).toEqual(['header.If-Match', 'body.name']);
    expect(fields('deletePet')).toEqual(['header.If-Match']);
    expect(inputs.has('createPet')).toBe(false);
    expect(inputs.get('listPets')![0]!.deprecatedAt).toEqual(new Date(SINCE));
  });

  it('finds none in openapi.yaml today', () => {
    const { document, operations } = loadContract();
    expect(readDeprecatedInputs(document, operations).size).toBe(0);
  });

  it('leaves their struck-through marks in the generated types to openapi-typescript, which writes @deprecated', async () => {
    const types = astToString(await openapiTS(deprecating() as never, { silent: true }));
    expect(types).toMatch(/@deprecated\s*\*\/\s*name\?:/);
    expect(types).toMatch(/\/\*\*\s*\*\s*@deprecated\s*\*\s*@description Return only animals with this status\.[^]*?\*\/\s*status\?:/);
  });
});
