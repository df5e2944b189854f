import { describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../src/contract/contract.js';
import { readErrorCodes } from '../../src/contract/error-codes.js';
import type { OpenApiDocument, SchemaObject } from '../../src/contract/spec.js';

const contract = loadContract();

function clone(): OpenApiDocument {
  return structuredClone(contract.document);
}

describe('the error codes of openapi.yaml (readErrorCodes)', () => {
  it('reads one status per ErrorCode entry, its x-http-status, each 4xx or 5xx', () => {
    const entries = (contract.document.components.schemas['ErrorCode']!['oneOf'] as SchemaObject[]).map((entry) => [
      entry['const'],
      entry['x-http-status'],
    ]);
    expect(Object.fromEntries(contract.errorCodes)).toEqual(Object.fromEntries(entries));
    for (const status of contract.errorCodes.values()) expect(status >= 400 && status <= 599, String(status)).toBe(true);
  });

  it('refuses an error code without a status', () => {
    const broken = clone();
    delete (broken.components.schemas['ErrorCode']!['oneOf'] as SchemaObject[])[0]!['x-http-status'];
    expect(() => contractFromDocument(broken)).toThrow(/error code "\w+" needs an x-http-status from 400 to 599/);
  });

  it('finds the table by its shape, whatever its name, and reads none from a document without one', () => {
    const renamed = clone();
    renamed.components.schemas['Codes'] = renamed.components.schemas['ErrorCode']!;
    delete renamed.components.schemas['ErrorCode'];
    expect(readErrorCodes(renamed)).toEqual(contract.errorCodes);
    const without = clone();
    delete without.components.schemas['ErrorCode'];
    expect(readErrorCodes(without).size).toBe(0);
  });
});
