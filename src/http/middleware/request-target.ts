import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Contract } from '../../contract/contract.js';
import { apiError } from '../../errors/api-error.js';
import { sentOnce } from '../raw-headers.js';
import { contextOf } from '../request-context.js';

/** RFC 9110 §7.2 / RFC 3986 §3.2.2: uri-host [ ":" port ], where the host may be empty. */
const HOST =
  /^(?:\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9._~!$&'()*+,;=:-]+)\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;

/**
 * Turns an absolute-form request target (RFC 9112 §3.2.2, `GET http://host/v1/pets HTTP/1.1`, as
 * proxies send) into the origin-form the router and the validator match (`/v1/pets`). It runs before
 * Express sees the request, because Express keeps the target as it arrived (req.originalUrl) and the
 * validator matches that. A target that cannot be read is left for checkRequestTarget to refuse.
 */
export function normaliseTarget(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '';
  if (url.startsWith('/') || url === '*') return;
  if (!/^https?:\/\//i.test(url)) {
    contextOf(res).targetProblem = 'the request target is neither a path nor an absolute http(s) URL';
    // Express routes nothing without a path (the authority form of CONNECT, `example.com:443`): it
    // is routed as `/` to be refused, and logged as it arrived.
    (req as { originalUrl?: string }).originalUrl = url;
    req.url = '/';
    return;
  }
  try {
    const { pathname, search } = new URL(url);
    req.url = pathname + search;
  } catch {
    contextOf(res).targetProblem = 'the request target is not a valid URL';
  }
}

/**
 * RFC 9112 §2.3, §3.2 and §6.1: answers what is not HTTP/1.x, a Transfer-Encoding on HTTP/1.0, a
 * target longer than the spec's `x-max-request-target-bytes` or malformed, and
 * a missing (HTTP/1.1), repeated or malformed Host, before anything else looks at the request.
 */
export function checkRequestTarget({ maxRequestTargetBytes: limit }: Contract): RequestHandler {
  return (req, res, next) => {
    if (req.httpVersionMajor !== 1) throw apiError('http_version_not_supported');
    // Chunked framing is HTTP/1.1's: on HTTP/1.0 it is faulty framing, and the connection cannot
    // be read past it (RFC 9112 §6.1).
    if (req.httpVersionMinor === 0 && req.headers['transfer-encoding'] !== undefined) {
      throw apiError('bad_request', { problem: 'it is HTTP/1.0, which has no Transfer-Encoding' }, { Connection: 'close' });
    }
    if ((req.originalUrl ?? '').length > limit) throw apiError('uri_too_long', { limit });
    const problem = contextOf(res).targetProblem;
    if (problem) throw apiError('bad_request', { problem });
    if (req.url === '*' && req.method !== 'OPTIONS') throw apiError('bad_request', { problem: 'only OPTIONS takes the target *' });
    if (!sentOnce(req.rawHeaders, 'host')) throw apiError('bad_request', { problem: 'it has more than one Host header' });
    const host = req.headers.host;
    if (host === undefined) {
      if (req.httpVersionMinor >= 1) throw apiError('bad_request', { problem: 'it has no Host header' });
    } else if (!HOST.test(host)) {
      throw apiError('bad_request', { problem: 'its Host header is not a host name with an optional port' });
    }
    next();
  };
}

/**
 * HEAD is answered wherever GET is (RFC 9110 §9.3.2): routed, authenticated and validated as the GET
 * it mirrors. Node already leaves the body out of a response to a request that arrived as HEAD, and
 * keeps the headers GET would send, Content-Length included.
 */
export function headAsGet(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'HEAD') {
      req.method = 'GET';
      contextOf(res).arrivedAsHead = true;
    }
    next();
  };
}

/** The method as the client sent it, for logs and messages. */
export function arrivedMethod(req: IncomingMessage, res: ServerResponse): string {
  return contextOf(res).arrivedAsHead ? 'HEAD' : (req.method ?? '');
}
