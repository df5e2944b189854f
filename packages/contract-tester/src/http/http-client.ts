import http from 'node:http';
import https from 'node:https';
import { setTimeout } from 'node:timers/promises';
import { parseExactJson } from '../generate/json-text.js';
import type { TestRequest } from '../generate/requests.js';
import type { Credential } from '../generate/requests.js';
import { credentialParts, Credentials, targetWith, withoutMergedCookie } from './credentials.js';

export interface HttpResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined as Node joins them (set-cookie as an array). */
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  text: string;
  /** The parsed body, when the content type is JSON and the text parses. */
  body: unknown;
  /** Why a JSON-labelled body could not be read, if it could not. */
  bodyError?: string;
  /** Milliseconds from sending the request to the end of the answer. */
  elapsedMs: number;
}

/** One request sent and what came back (or why nothing did): for HAR and NDJSON reports. */
export interface ExchangeRecord {
  startedAt: Date;
  request: TestRequest;
  /** The target and headers as they went, secrets replaced by their variables. */
  target: string;
  headers: Array<{ name: string; value: string }>;
  response?: HttpResponse;
  error?: string;
}

/** What the deployment's rate limit cost a run. */
export interface RateLimitStats {
  /** 429s with a Retry-After the client waited out before sending again. */
  waits: number;
  waitedMs: number;
  /** 429s it returned: no usable Retry-After, too many in a row, or a wait past the deadline. */
  unresolved: number;
}

/** The request could not be sent or got no answer (refused, reset, timed out). */
export class NoResponseError extends Error {}

const TIMEOUT_MS = 30_000;
const MAX_RATE_LIMIT_RETRIES = 5;
const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After (RFC 9110 §10.2.3) as milliseconds from now, if it is there and at most a minute. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  if (typeof header !== 'string') return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) && ms <= MAX_RETRY_AFTER_MS ? Math.max(0, ms) : undefined;
}

function isJson(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && /^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i.test(contentType);
}

/**
 * Sends test requests to one deployment over keep-alive connections, one at a time, exactly as
 * built: the method, target, headers and body bytes given, with Host, Content-Length (where there
 * is a body, or the method usually has one) and the Connection Node adds. Counts what it sends.
 */
export class ApiClient {
  readonly origin: string;
  sent = 0;
  readonly rateLimit: RateLimitStats = { waits: 0, waitedMs: 0, unresolved: 0 };
  /** The run's end (--max-time), a `performance.now()` time: no wait for a rate limit goes past it. */
  deadline?: number;
  /** Called with every exchange, when a report records them. */
  onExchange?: (record: ExchangeRecord) => void;
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(
    baseUrl: string,
    readonly credentials: Credentials = new Credentials(),
  ) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.transport = url.protocol === 'https:' ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets: 1 });
  }

  /**
   * Sends a request. A 429 with a Retry-After of at most a minute is waited out and the request sent
   * again (up to five times), as a well-behaved client does, unless the wait would end past the
   * run's deadline: the tester tests the API, not its rate limits. Each wait is counted.
   */
  async send(request: TestRequest): Promise<HttpResponse> {
    for (let attempt = 1; ; attempt += 1) {
      const response = await this.sendOnce(request);
      if (response.status !== 429) return response;
      const wait = attempt <= MAX_RATE_LIMIT_RETRIES ? retryAfterMs(response.headers['retry-after']) : undefined;
      if (wait === undefined || (this.deadline !== undefined && performance.now() + wait > this.deadline)) {
        this.rateLimit.unresolved += 1;
        return response;
      }
      this.rateLimit.waits += 1;
      this.rateLimit.waitedMs += wait;
      await setTimeout(wait);
    }
  }

  private async sendOnce(request: TestRequest): Promise<HttpResponse> {
    this.sent += 1;
    const startedAt = new Date();
    try {
      let response: HttpResponse;
      try {
        response = await this.attempt(request);
      } catch (error) {
        // A kept-alive connection the server closed meanwhile: once more on a new one.
        if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
        response = await this.attempt(request);
      }
      this.record(startedAt, request, response);
      return response;
    } catch (error) {
      this.record(startedAt, request, undefined, (error as Error).message);
      throw error;
    }
  }

  private record(startedAt: Date, request: TestRequest, response?: HttpResponse, error?: string): void {
    if (!this.onExchange) return;
    const { target, headers } = this.wire(request, (credential) => `$${credential.variable}`);
    this.onExchange({ startedAt, request, target, headers, ...(response ? { response } : {}), ...(error ? { error } : {}) });
  }

  /** The target and headers of a request as they go, with each secret written by `secret`. */
  wire(
    request: TestRequest,
    secret: (credential: Credential) => string,
  ): { target: string; headers: Array<{ name: string; value: string }> } {
    const parts = credentialParts(request, this.credentials, secret);
    return { target: targetWith(request.target, parts.query), headers: [...withoutMergedCookie(request.headers, parts), ...parts.headers] };
  }

  private attempt(request: TestRequest): Promise<HttpResponse> {
    const url = new URL(this.origin);
    const { target, headers: sent } = this.wire(request, (credential) => {
      const value = this.credentials.secretOf(credential) ?? '';
      return credential.place === 'query' ? encodeURIComponent(value) : value;
    });
    // Headers as a list keep their order and repetitions, but Node then adds neither Host nor, for
    // GET and DELETE, a Content-Length: both are set here. A request without a body says so too,
    // rather than get a chunked empty one.
    const framing = { name: 'Content-Length', value: String(request.body?.length ?? 0) };
    const bodyless = !request.body && ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE'].includes(request.method);
    const headers = [{ name: 'Host', value: url.host }, ...sent, ...(bodyless ? [] : [framing])].flatMap(({ name, value }) => [
      name,
      value,
    ]);
    const started = performance.now();
    return new Promise((resolve, reject) => {
      let answered = false;
      const outgoing = this.transport.request(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          method: request.method,
          path: target,
          headers,
          agent: this.agent,
        },
        (incoming) => {
          answered = true;
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', (error) => reject(new NoResponseError(`the response was cut off: ${error.message}`)));
          incoming.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const text = bytes.toString('utf8');
            const response: HttpResponse = {
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              bytes,
              text,
              body: undefined,
              elapsedMs: performance.now() - started,
            };
            if (text && isJson(incoming.headers['content-type'])) {
              try {
                response.body = parseExactJson(text);
              } catch (error) {
                response.bodyError = `the body is not JSON: ${(error as Error).message}`;
              }
            }
            resolve(response);
          });
        },
      );
      outgoing.setTimeout(TIMEOUT_MS, () => outgoing.destroy(new Error(`no response within ${TIMEOUT_MS / 1000} s`)));
      outgoing.on('error', (error) => {
        // The server may answer (413, 401) and close before it has read the whole body.
        if (answered) return;
        const failure = new NoResponseError(`no response: ${error.message}`);
        Object.assign(failure, { reusedSocket: outgoing.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET' });
        reject(failure);
      });
      outgoing.end(request.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
