import { describe, expect, it } from 'vitest';
import type { CredentialScheme } from '../../../src/contract/security.js';
import { credentialOf, type CredentialSource } from '../../../src/http/middleware/credentials.js';

/** A request with these header lines (as sent) and this target. */
function request(lines: [string, string][], originalUrl = '/things'): CredentialSource {
  const headers: Record<string, string> = {};
  for (const [name, value] of lines) headers[name.toLowerCase()] = value;
  return { rawHeaders: lines.flat(), headers, originalUrl };
}

const bearer: CredentialScheme = { name: 'b', kind: 'bearer' };
const basic: CredentialScheme = { name: 'u', kind: 'basic' };
const header: CredentialScheme = { name: 'h', kind: 'apiKey', in: 'header', parameter: 'X-Api-Key' };
const query: CredentialScheme = { name: 'q', kind: 'apiKey', in: 'query', parameter: 'key' };
const cookie: CredentialScheme = { name: 'c', kind: 'apiKey', in: 'cookie', parameter: 'session' };

describe('the credential a request carries for a scheme (credentialOf)', () => {
  it('reads a bearer token and a basic account and key, the scheme names in any case', () => {
    expect(credentialOf(request([['Authorization', 'BEARER abc']]), bearer)).toEqual({ key: 'abc' });
    const encoded = Buffer.from('alice:psk_x:y').toString('base64');
    expect(credentialOf(request([['Authorization', `basic ${encoded}`]]), basic)).toEqual({ account: 'alice', key: 'psk_x:y' });
    expect(credentialOf(request([['Authorization', `Basic ${Buffer.from('no-colon').toString('base64')}`]]), basic)).toBeUndefined();
    expect(credentialOf(request([['Authorization', 'Bearer abc']]), basic)).toBeUndefined();
  });

  it('reads an API key from its header, query parameter or cookie, and nothing from an empty one', () => {
    expect(credentialOf(request([['x-api-key', 'k1']]), header)).toEqual({ key: 'k1' });
    expect(credentialOf(request([], '/things?a=1&key=k2'), query)).toEqual({ key: 'k2' });
    expect(credentialOf(request([['Cookie', 'a=1; session="k3"; b=2']]), cookie)).toEqual({ key: 'k3' });
    expect(credentialOf(request([['X-Api-Key', '']]), header)).toBeUndefined();
    expect(credentialOf(request([['Cookie', 'sessions=k3']]), cookie)).toBeUndefined();
  });

  it('takes no credential sent twice: a proxy in front may have read the other one', () => {
    expect(
      credentialOf(
        request([
          ['Authorization', 'Bearer a'],
          ['authorization', 'Bearer a'],
        ]),
        bearer,
      ),
    ).toBeUndefined();
    expect(
      credentialOf(
        request([
          ['X-Api-Key', 'a'],
          ['x-api-key', 'b'],
        ]),
        header,
      ),
    ).toBeUndefined();
    expect(credentialOf(request([], '/things?key=a&key=a'), query)).toBeUndefined();
  });
});
