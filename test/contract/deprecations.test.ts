import { describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../src/contract/contract.js';
import type { OpenApiDocument } from '../../src/contract/spec.js';

const contract = loadContract();

function clone(): OpenApiDocument {
  return structuredClone(contract.document);
}

describe('the deprecations of openapi.yaml (readDeprecations)', () => {
  it('marks getPet deprecated with its dates and replacement, as the interface says', () => {
    expect(contract.deprecations).toContainEqual(
      expect.objectContaining({
        operationId: 'getPet',
        deprecatedAt: new Date('2026-11-21T00:00:00Z'),
        sunsetAt: new Date('2030-12-05T00:00:00Z'),
        replacement: { href: '/v1/pets', title: 'GET /v1/pets with the status filter' },
      }),
    );
  });

  it('refuses a deprecated operation without x-deprecation', () => {
    const broken = clone();
    delete (broken.paths['/pets/{petId}']!['get'] as Record<string, unknown>)['x-deprecation'];
    expect(() => contractFromDocument(broken)).toThrow('getPet is deprecated but has no x-deprecation');
  });

  it('refuses a sunset that is not a date', () => {
    const broken = clone();
    (broken.paths['/pets/{petId}']!['get'] as Record<string, Record<string, unknown>>)['x-deprecation']!['sunsetAt'] = 'soon';
    expect(() => contractFromDocument(broken)).toThrow('getPet x-deprecation.sunsetAt must be an RFC 3339 date-time');
  });
});
