import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { DEFAULT_REQUEST_ID_PATTERN, readContract, SETTING_DEFAULTS } from '../../src/contract/read-contract.js';
import type { OpenApiDocument, SchemaObject } from '../../src/contract/spec.js';

const document = loadContract().document;

function clone(): OpenApiDocument {
  return structuredClone(document);
}

describe('readContract: the checks the server makes of a spec at start-up, generated/ aside', () => {
  it('reads a spec with an error code generated/ does not know yet (npm run generate asks before it writes)', () => {
    const edited = clone();
    (edited.components.schemas['ErrorCode']!['oneOf'] as SchemaObject[]).push({ const: 'new_code', 'x-http-status': 418 });
    expect(readContract(edited).errorCodes.get('new_code')).toBe(418);
  });

  it.each(['x-max-request-body-bytes', 'x-max-request-target-bytes'] as const)(
    'refuses a spec whose %s is not a positive integer, and takes its documented default where it has none',
    (name) => {
      for (const value of [0, -1, 1.5, '16384', null]) {
        const broken = clone();
        broken[name] = value;
        expect(() => readContract(broken)).toThrow(`openapi.yaml: ${name} must be a positive integer`);
      }
      const unset = clone();
      delete unset[name];
      const field = name === 'x-max-request-body-bytes' ? 'maxRequestBodyBytes' : 'maxRequestTargetBytes';
      expect(readContract(unset)[field]).toBe(SETTING_DEFAULTS[name]);
    },
  );

  it("reads a usable request id from the X-Request-Id response header's pattern, or takes the default", () => {
    const headers = clone().components['headers'] as Record<string, { schema: SchemaObject }>;
    expect(readContract(document).requestIdPattern.source).toBe(headers['RequestId']!.schema['pattern']);
    const without = clone();
    delete (without.components['headers'] as Record<string, { schema: SchemaObject }>)['RequestId']!.schema['pattern'];
    expect(readContract(without).requestIdPattern).toBe(DEFAULT_REQUEST_ID_PATTERN);
  });
});
