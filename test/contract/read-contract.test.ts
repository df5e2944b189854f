import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { readContract } from '../../src/contract/read-contract.js';
import type { OpenApiDocument, SchemaObject } from '../../src/contract/spec.js';

const document = loadContract().document;

function clone(): OpenApiDocument {
  return structuredClone(document);
}

describe('readContract: the checks the server makes of a spec at start-up, generated/ aside', () => {
  it('reads a spec with an error code generated/ does not know yet (npm run generate asks before it writes)', () => {
    const edited = clone();
    (edited.components.schemas['ErrorCode']!['oneOf'] as SchemaObject[]).push({ const: 'new_code', 'x-http-status': 418 });
    expect(readContract(edited).errorCodes.get('new_code' as never)).toBe(418);
  });

  it.each(['x-max-request-body-bytes', 'x-max-request-target-bytes'] as const)(
    'refuses a spec whose %s is not a positive integer',
    (name) => {
      for (const value of [0, -1, 1.5, '16384', undefined]) {
        const broken = clone();
        broken[name] = value;
        expect(() => readContract(broken)).toThrow(`openapi.yaml: ${name} must be a positive integer`);
      }
    },
  );

  it('refuses a spec whose X-Request-Id header has no pattern', () => {
    const broken = clone();
    delete (broken.components['headers'] as Record<string, { schema: SchemaObject }>)['RequestId']!.schema['pattern'];
    expect(() => readContract(broken)).toThrow('openapi.yaml: components.headers.RequestId needs a schema with a pattern');
  });
});
