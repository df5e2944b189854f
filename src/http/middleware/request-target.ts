import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Contract } from '../../contract/contract.js';
import { apiError } from '../../errors/api-error.js';

/** RFC 9110 §7.2 / RFC 3986 §3.2.2: uri-host [ ":" port ], where the host may be empty. */
const HOST =
  /^(?:\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9._~!$&'()*+,;=:-]+)\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;

const TARGET_PROBLEM = Symbol('request target problem');

type Target = IncomingMessage & { [TARGET_PROBLEM]?: string };

/**
 * Turns an absolute-form request target (RFC 9112 §3.2.2, `GET http://host/v1/pets HTTP/1.1`, as
 * proxies send) into the origin-form the router and the validator match (`/v1/pets`). It runs before
 * Express sees the request, because Express keeps the target as it arrived (req.originalUrl) and the
 * validator matches that. A target that cannot be read is left for checkRequestTarget to refuse.
 */
export function normaliseTarget(req: IncomingMessage): void {
  const url = req.url ?? '';
  if (url.startsWith('/') || url === '*') return;
  if (!/^https?:\/\//i.test(url)) {
    (req as Target)[TARGET_PROBLEM] = 'the request target is neither a path nor an absolute http(s) URL';
    // Express routes nothing without a path (the authority form of CONNECT, `example.com:443`): it
    // is routed as `/` to be refused, and logged as it arrived.
    (req as Target & { originalUrl?: string }).originalUrl = url;
    req.url = '/';
    return;
  }
  try {
    const { pathname, search } = new URL(url);
    req.url = pathname + search;
  } catch {
    (req as Target)[TARGET_PROBLEM] = 'the request target is not a valid URL';
  }
}

/**
 * RFC 9112 §2.3, §3.2 and §6.1: answers what is not HTTP/1.x, a Transfer-Encoding on HTTP/1.0, a
 * target longer than the spec's `x-max-request-target-bytes` or malformed, and
 * a missing (HTTP/1.1), repeated or malformed Host, before anything else looks at the request.
 */
export function checkRequestTarget({ maxRequestTargetBytes: limit }: Contract): RequestHandler {
  return (req, _res, next) => {
    if (req.httpVersionMajor !== 1) throw apiError('http_version_not_supported');
    // Chunked framing is HTTP/1.1's: on HTTP/1.0 it is faulty framing, and the connection cannot
    // be read past it (RFC 9112 §6.1).
    if (req.httpVersionMinor === 0 && req.headers['transfer-encoding'] !== undefined) {
      throw apiError('bad_request', { problem: 'it is HTTP/1.0, which has no Transfer-Encoding' }, { Connection: 'close' });
    }
    if ((req.originalUrl ?? '').length > limit) throw apiError('uri_too_long', { limit });
    const problem = (req as Target)[TARGET_PROBLEM];
    if (problem) throw apiError('bad_request', { problem });
    if (req.url === '*' && req.method !== 'OPTIONS') throw apiError('bad_request', { problem: 'only OPTIONS takes the target *' });
    let hosts = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts += 1;
    if (hosts > 1) throw apiError('bad_request', { problem: 'it has more than one Host header' });
    const host = req.headers.host;
    if (host === undefined) {
      if (req.httpVersionMinor >= 1) throw apiError('bad_request', { problem: 'it has no Host header' });
    } else if (!HOST.test(host)) {
      throw apiError('bad_request', { problem: 'its Host header is not a host name with an optional port' });
    }
    next();
  };
}

/** The method a request arrived with: HEAD requests are routed as GET (see headAsGet). */
export const ARRIVED_AS_HEAD = Symbol('arrived as HEAD');

/**
 * HEAD is answered wherever GET is (RFC 9110 §9.3.2): routed, authenticated and validated as the GET
 * it mirrors. Node already leaves the body out of a response to a request that arrived as HEAD, and
 * keeps the headers GET would send, Content-Length included.
 */
export function headAsGet(): RequestHandler {
  return (req, _res, next) => {
    if (req.method === 'HEAD') {
      req.method = 'GET';
      (req as typeof req & { [ARRIVED_AS_HEAD]?: true })[ARRIVED_AS_HEAD] = true;
    }
    next();
  };
}

/** The method as the client sent it, for logs and messages. */
export function arrivedMethod(req: IncomingMessage): string {
  return (req as IncomingMessage & { [ARRIVED_AS_HEAD]?: true })[ARRIVED_AS_HEAD] ? 'HEAD' : (req.method ?? '');
}
