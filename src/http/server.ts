import { IncomingMessage, ServerResponse, createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { apiError, type ApiError } from '../errors/api-error.js';
import { createApp, type AppOptions } from './app.js';
import { Connections } from './connections.js';
import {
  answerHalfClosedConnections,
  closeAfterLastResponse,
  closeConnectionAfter,
  expressMessages,
  responseOnSocket,
} from './internals/index.js';
import { Lifecycle } from './lifecycle.js';
import { DEFAULT_LINGER, isLingering, lingeringClose, type LingerLimits } from './lingering-close.js';
import { normaliseTarget } from './middleware/request-target.js';
import { rawErrorWriter } from './raw-error.js';

/** How long clients may take; README's configuration table has the defaults. */
export interface ServerTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000 };

export interface ServerOptions extends AppOptions {
  timeouts?: ServerTimeouts;
  /** How long and how much a connection is read after its last answer; DEFAULT_LINGER otherwise. */
  linger?: LingerLimits;
}

/**
 * The HTTP server of the service, as production runs it and as the in-process tests build it: the
 * app, plus the answers that Node's HTTP layer would otherwise give by itself with empty bodies
 * (parser errors, timeouts, unmet expectations), each as the Error object.
 */
export function createHttpServer(options: ServerOptions): Server {
  const lifecycle = options.lifecycle ?? new Lifecycle();
  const linger = options.linger ?? DEFAULT_LINGER;
  const server = serverFor(createApp({ ...options, lifecycle }), options.timeouts ?? DEFAULT_TIMEOUTS, linger);
  const responses = Connections.of(server);
  const writeRawError = rawErrorWriter({
    requestIdPattern: options.contract.requestIdPattern,
    errorFormat: options.contract.errorFormat,
    logger: options.logger,
    metrics: options.metrics,
    linger,
  });
  lifecycle.attach(server, writeRawError);
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    closeConnectionAfter(res);
    inTurn(res, () => writeRawError(res.socket!, apiError('expectation_failed'), { req, res }));
  });
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    // Answered and closing: what it still sends is dropped unparsed, and the closing has its own
    // limits. Refused and waiting for earlier answers to go out: the parser repeats its error.
    if (isLingering(socket) || refused.has(socket)) return;
    // Bytes after a request that closes the connection (`Connection: close`, or HTTP/1.0 without
    // keep-alive): that request is answered, then the connection closes, and nothing after it is
    // served (RFC 9112 §9.6).
    if (error.code === 'HPE_CLOSED_CONNECTION') return;
    // The response of the request the error is about, when it had begun (its body was late or
    // broken): through it, the request's id. A response to an earlier, complete request is one
    // still being answered on a pipelined connection.
    const pending = responses.current(socket);
    const res = pending && !pending.req.complete ? pending : undefined;
    const answer = answerToClientError(error, res, options.contract.maxRequestTargetBytes);
    if (!answer) {
      socket.destroy();
      return;
    }
    refused.add(socket);
    afterAnswers(responses, socket, () => writeRawError(socket, answer, { res, req: res?.req }));
  });
  return server;
}

/**
 * Runs `serve` once `res` may be written: at once, unless answers to earlier requests on the
 * connection (pipelined) are still going out. Node hands every request to the app as soon as it is
 * read, and a request after one whose answer closes the connection (a refused body, `Connection:
 * close`) would be carried out although its answer is never sent, and again when the client
 * retries it. In turn, it never is (RFC 9112 §9.3.2 allows parallel work for safe methods only).
 */
function inTurn(res: ServerResponse, serve: () => void): void {
  // The parser may still hand over a request it had read before the connection began to close.
  const serveUnlessClosing = () => {
    if (!isLingering(res.socket!)) serve();
  };
  // Node gives a pipelined response the socket once the one before it has finished.
  if (res.socket) serveUnlessClosing();
  else res.once('socket', serveUnlessClosing);
}

/** Calls `then` once the answers to the connection's earlier requests have gone out, in order. */
function afterAnswers(responses: Connections, socket: Duplex, then: () => void): void {
  const res = responses.current(socket);
  // A finished response has left the connection's queue before this runs again.
  if (res && !res.writableFinished && res.req.complete) res.once('finish', () => afterAnswers(responses, socket, then));
  else then();
}

/** What Node's parser reports ('clientError'): where in the packet it stopped, and the packet. */
type ClientError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number };

/**
 * Whether the parser stopped right after a well-formed HTTP version other than 1.0 and 1.1. llhttp
 * reports a request line that does not end in CRLF (a bare LF, text after the version) with the
 * same code as an unknown version: that is malformed framing, not another version of HTTP.
 */
function isOtherVersion({ rawPacket, bytesParsed }: ClientError): boolean {
  const version = /HTTP\/(\d\.\d)$/.exec(rawPacket?.subarray(0, bytesParsed).toString('latin1') ?? '')?.[1];
  return version !== undefined && version !== '1.0' && version !== '1.1';
}

/** What to answer to a request Node's parser refused or timed out, or undefined when nothing can be. */
function answerToClientError(error: ClientError, response: ServerResponse | undefined, targetLimit: number): ApiError | undefined {
  // Its response is already on its way: too late to answer.
  if (response?.headersSent) return undefined;
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      // With a response object, the headers had arrived: it was the body that was late.
      return apiError('request_timeout', { part: response ? 'request' : 'headers' });
    case 'HPE_HEADER_OVERFLOW': {
      // Node counts the request line with the headers; a first line longer than any target we read
      // was a long target.
      const firstLineEnd = error.rawPacket?.indexOf('\r\n') ?? -1;
      return firstLineEnd === -1 || firstLineEnd > targetLimit
        ? apiError('uri_too_long', { limit: targetLimit })
        : apiError('headers_too_large');
    }
    case 'HPE_INVALID_VERSION':
      return isOtherVersion(error)
        ? apiError('http_version_not_supported')
        : apiError('bad_request', { problem: 'the request line must end with the HTTP version and CRLF' });
    case 'HPE_PAUSED_H2_UPGRADE':
      return apiError('http_version_not_supported');
    case 'HPE_INVALID_METHOD':
      return apiError('bad_request', { problem: 'the method is not one HTTP defines' });
    case 'HPE_INVALID_URL':
      return apiError('bad_request', { problem: 'the request target is malformed' });
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
    case 'HPE_INVALID_CONSTANT':
      return apiError('bad_request', { problem: 'a header or line is malformed' });
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_INVALID_EOF_STATE':
      return apiError('bad_request', { problem: 'the body framing (Content-Length or Transfer-Encoding) is invalid' });
  }
  // The client went away (ECONNRESET, EPIPE, ...): nobody to answer.
  if (!error.code?.startsWith('HPE_')) return undefined;
  return apiError('bad_request', { problem: 'it could not be parsed' });
}

/** The app on a node:http server whose requests and responses are built with Express's prototypes (express-app.ts). */
export function serverFor(app: Express, timeouts: ServerTimeouts = DEFAULT_TIMEOUTS, linger: LingerLimits = DEFAULT_LINGER): Server {
  const messages = expressMessages(app);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    normaliseTarget(req, res);
    inTurn(res, () => void app(req, res));
  };
  const server = createServer(
    {
      ...messages,
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default, which would let a slow
      // client hold a connection for up to 30 s more than allowed).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, timeouts.headersTimeoutMs / 5)),
      // A missing Host is answered by the app (middleware/request-target.ts), with the Error object.
      requireHostHeader: false,
    },
    handle,
  );
  // Node answers `Expect: 100-continue` at once by itself; with this listener the app decides, after
  // authentication and the length check (see middleware/request-body.ts).
  server.on('checkContinue', handle);
  // A client may shut down its sending side once its requests are out and still read the answers
  // (RFC 9112 §9.6): Node answers the requests it has read, then closes.
  answerHalfClosedConnections(server);
  // Node keeps the first 2,000 header lines by default and drops the rest unseen, where a proxy in
  // front may have read them (a second Host, Content-Type or Authorization). Every line is kept:
  // the 16 KiB limit on the header section already bounds them.
  server.maxHeadersCount = 0;
  // A connection closed after a response is closed in stages, so that a client still sending reads it.
  server.on('connection', (socket: Socket) => closeAfterLastResponse(socket, () => lingeringClose(socket, linger)));
  // CONNECT asks for a tunnel, which this server never opens. Node hands such a request over with
  // its bare socket, outside the app; the app answers it as any other request instead: 401 without
  // a key, 404, 405 with the path's Allow, or 400 for a target that is no path (the authority form
  // of `CONNECT example.com:443`: this server is no proxy). Then the connection closes.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    // It has no content (RFC 9110 §9.3.6; Node's parser read none): what follows its head would be
    // tunnel bytes, not a body for the app to wait on.
    delete req.headers['content-length'];
    delete req.headers['transfer-encoding'];
    const res = responseOnSocket(messages.ServerResponse, req, socket);
    res.once('finish', () => lingeringClose(socket, linger));
    server.emit('request', req, res);
  });
  return server;
}
