import { describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../src/contract/contract.js';
import type { OpenApiDocument, SchemaObject } from '../../src/contract/spec.js';

const contract = loadContract();

function clone(): OpenApiDocument {
  return structuredClone(contract.document);
}

describe('the contract, as loaded at start-up', () => {
  it('caps request bodies at no more than 64 KiB', () => {
    expect(contract.maxRequestBodyBytes).toBeGreaterThan(0);
    expect(contract.maxRequestBodyBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses servers that disagree on the base path', () => {
    const broken = clone();
    broken.servers![1]!.url = 'https://{host}/v2';
    expect(() => contractFromDocument(broken)).toThrow('servers disagree on the base path');
  });

  it('refuses a spec whose error codes generated/ does not know: npm run generate was not run', () => {
    const edited = clone();
    (edited.components.schemas['ErrorCode']!['oneOf'] as SchemaObject[]).push({ const: 'new_code', 'x-http-status': 418 });
    expect(() => contractFromDocument(edited)).toThrow(
      'openapi.yaml and generated/contract.ts disagree on the error codes: run `npm run generate`',
    );
  });
});
