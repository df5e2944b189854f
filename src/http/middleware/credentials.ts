import type { Request } from 'express';
import type { CredentialScheme } from '../../contract/security.js';
import { sentOnce } from '../raw-headers.js';

/** What credentials are read from: the headers as sent, and the request target. */
export type CredentialSource = Pick<Request, 'rawHeaders' | 'headers' | 'originalUrl'>;

const BEARER = /^bearer +(\S+) *$/i;
const BASIC = /^basic +([A-Za-z0-9+/]+=*) *$/i;

/** A credential as a request carries it for one scheme: the key, and for basic the account it names. */
export interface Credential {
  key: string;
  account?: string;
}

/** A header's value, only when sent once: the server and a proxy in front may each read another one. */
function headerOnce(req: CredentialSource, name: string): string | undefined {
  if (!sentOnce(req.rawHeaders, name)) return undefined;
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** One cookie's value from the Cookie header (RFC 6265 §4.2.1: `name=value` pairs, `; ` apart, the value optionally quoted). */
function cookieOf(req: CredentialSource, name: string): string | undefined {
  for (const pair of (headerOnce(req, 'cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name)
      return pair
        .slice(at + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

/** A query parameter's value, only when it is there once. */
function queryOf(req: CredentialSource, name: string): string | undefined {
  const query = req.originalUrl.indexOf('?');
  if (query < 0) return undefined;
  const values = new URLSearchParams(req.originalUrl.slice(query + 1)).getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

/** The credential a request carries for one scheme, if any (and well-formed). */
export function credentialOf(req: CredentialSource, scheme: CredentialScheme): Credential | undefined {
  switch (scheme.kind) {
    case 'bearer': {
      const token = BEARER.exec(headerOnce(req, 'authorization') ?? '')?.[1];
      return token === undefined ? undefined : { key: token };
    }
    case 'basic': {
      const encoded = BASIC.exec(headerOnce(req, 'authorization') ?? '')?.[1];
      if (encoded === undefined) return undefined;
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return colon < 0 ? undefined : { account: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
    }
    case 'apiKey': {
      const value =
        scheme.in === 'header'
          ? headerOnce(req, scheme.parameter.toLowerCase())
          : scheme.in === 'query'
            ? queryOf(req, scheme.parameter)
            : cookieOf(req, scheme.parameter);
      return value === undefined || value === '' ? undefined : { key: value };
    }
  }
}
