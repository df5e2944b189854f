import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import contentType from 'content-type';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import getRawBody from 'raw-body';
import type { Contract } from '../../contract/contract.js';
import { apiError } from '../../errors/api-error.js';
import { sentOnce } from '../raw-headers.js';
import { parseStrictJson } from '../strict-json.js';

/** Whether the request has a body at all (RFC 9112 §6.3): chunked, or a non-zero Content-Length. */
export function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')
  );
}

/** The charset of a JSON body, or undefined when none is named (JSON is UTF-8, RFC 8259 §8.1). */
function charsetOf(header: string): string | undefined {
  try {
    return contentType.parse(header).parameters['charset']?.toLowerCase();
  } catch {
    return undefined; // a malformed header is the validator's to reject, as 415
  }
}

/** The body stream with its Content-Encoding undone, as body-parser would; other codings are 415. */
function decoded(req: IncomingMessage): Readable {
  const coding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  switch (coding) {
    case 'identity':
      return req;
    case 'gzip':
    case 'x-gzip':
      return req.pipe(createGunzip());
    case 'deflate':
      return req.pipe(createInflate());
    case 'br':
      return req.pipe(createBrotliDecompress());
    default:
      throw apiError('unsupported_media_type', { reason: 'charset' });
  }
}

/**
 * Reads JSON request bodies, and answers early what needs no body read: a declared Content-Length
 * over the spec's `x-max-request-body-bytes` (413 at once), a media type the spec declares no body
 * in (left unread for the validator's 415), another charset or content coding (415). `100 Continue` goes out only here,
 * after authentication and those checks: the server's checkContinue listener leaves it to us. The
 * body is then read up to the limit (decoded), and must be UTF-8 (400 invalid_utf8) and strict
 * JSON (see parseStrictJson). Mounted after authentication.
 *
 * Hand-written rather than express.json: body-parser reads a refused body to its end before it
 * answers, which a client sending gigabytes would make the server do, and it replaces invalid
 * UTF-8 with U+FFFD instead of refusing it.
 */
export function readJsonBodies(contract: Contract): RequestHandler {
  const limit = contract.maxRequestBodyBytes;
  // Every JSON media type the spec declares a body in (application/json, application/merge-patch+json).
  const mediaTypes = [...contract.requestMediaTypes];
  // Not an async function: a request without a body (every GET) goes on without a promise.
  return (req, res, next) => (hasBody(req) ? readBody(req, res, next) : next());
  async function readBody(req: Request, res: Response, next: NextFunction): Promise<void> {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) throw apiError('payload_too_large', { limit });
    // Two media types for one body: Node would keep the first, a proxy in front may have read the other.
    if (!sentOnce(req.rawHeaders, 'content-type')) throw apiError('unsupported_media_type', { reason: 'media-type' });
    const header = req.headers['content-type'];
    if (!header || !req.is(mediaTypes)) return next();
    const charset = charsetOf(header);
    if (charset !== undefined && charset !== 'utf-8') throw apiError('unsupported_media_type', { reason: 'charset' });
    const stream = decoded(req);
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();

    let bytes: Buffer;
    try {
      bytes = await getRawBody(stream, { limit, length: stream === req ? declared : undefined });
    } catch (error) {
      if ((error as { type?: string }).type === 'entity.too.large') throw apiError('payload_too_large', { limit });
      // A cut-off stream, a length that does not match, or a coding that does not decode.
      throw apiError('malformed_json', { reason: 'unreadable' });
    }
    if (!isUtf8(bytes)) throw apiError('invalid_utf8');
    // A byte order mark is no part of JSON text (RFC 8259 §8.1), but harmless: it is passed over.
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    if (text.trim() === '') return next();
    const parsed = parseStrictJson(text);
    if (!parsed.ok) {
      if (parsed.kind === 'syntax') throw apiError('malformed_json', { reason: 'syntax' });
      throw apiError('validation_failed', { problems: parsed.problems });
    }
    req.body = parsed.value;
    next();
  }
}
