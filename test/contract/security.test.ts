import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { readSecurity } from '../../src/contract/security.js';
import { listOperations, type OpenApiDocument } from '../../src/contract/spec.js';

const petStore = loadContract().document;

function edited(edit: (document: OpenApiDocument) => void): OpenApiDocument {
  const document = structuredClone(petStore);
  edit(document);
  return document;
}

const read = (document: OpenApiDocument) => readSecurity(document, listOperations(document));

describe("the security of a document's operations (readSecurity)", () => {
  it("reads the pet store's one bearer scheme for every operation, so that no request needs matching", () => {
    const security = read(petStore);
    expect(security.uniform).toBe(true);
    expect(security.unmatched).toEqual({ alternatives: [[{ name: 'bearerAuth', kind: 'bearer' }]], open: false });
    expect(security.realm).toBe('pet-store');
    expect(security.queryParameters).toEqual([]);
  });

  it('takes OAuth 2 and OpenID Connect tokens as bearer, and the title as realm where x-auth-realm is absent', () => {
    const security = read(
      edited((document) => {
        delete document['x-auth-realm'];
        document.info.title = 'Ünïcode "quoted" API';
        document.components['securitySchemes'] = { bearerAuth: { type: 'oauth2', flows: {} } };
      }),
    );
    expect(security.unmatched.alternatives).toEqual([[{ name: 'bearerAuth', kind: 'bearer' }]]);
    expect(security.realm).toBe('ncode quoted API');
  });

  it('is open where a document declares no security at all', () => {
    const security = read(edited((document) => delete document['security']));
    expect(security.unmatched).toEqual({ alternatives: [], open: true });
  });

  it.each([
    ['a scheme it cannot authenticate', { type: 'http', scheme: 'digest' }, /the server authenticates HTTP bearer and basic/],
    ['an undeclared scheme', undefined, /components\.securitySchemes\.bearerAuth is used by a security requirement but not declared/],
  ])('refuses, naming it, %s', (_, scheme, message) => {
    const document = edited((d) => (d.components['securitySchemes'] = scheme ? { bearerAuth: scheme } : {}));
    expect(() => read(document)).toThrow(message);
  });

  it('refuses an x-auth-realm a challenge cannot carry', () => {
    expect(() => read(edited((document) => (document['x-auth-realm'] = 'a "b"')))).toThrow(/x-auth-realm must be printable ASCII/);
  });
});
