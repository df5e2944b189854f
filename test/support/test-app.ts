import type { Server } from 'node:http';
import request from 'supertest';
import { issueApiKey } from '../../src/auth/api-keys.js';
import { loadContract, type Contract } from '../../src/contract/contract.js';
import { createHandlers } from '../../src/handlers/index.js';
import type { OperationHandlers } from '../../src/handlers/operation.js';
import type { Lifecycle } from '../../src/http/lifecycle.js';
import { listen, type Listening } from '../../src/http/listen.js';
import type { OutcomeCheck } from '../../src/http/operation-route.js';
import { createHttpServer, type ServerTimeouts } from '../../src/http/server.js';
import type { LingerLimits } from '../../src/http/lingering-close.js';
import type { Clock } from '../../src/http/middleware/deprecation.js';
import type { RateLimitSettings } from '../../src/http/rate-limits/rate-limits.js';
import { createLogger, type Logger } from '../../src/log/logger.js';
import type { HttpMetrics } from '../../src/metrics/metrics.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { sqliteBackend, type Backend } from './backends.js';
import { closeLater } from './resources.js';
import { checkServerHeaders, ContractChecker, type ObservedResponse } from './contract-check.js';

// Kept in a module of its own so that cleanup.ts, which every test file runs, loads none of the server.
export { closeLater } from './resources.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

// A checker compiles the document's schemas as it meets them, and keeps no state of a test's: one
// per contract serves every test of a file.
const checkers = new WeakMap<Contract, ContractChecker>();

function checkerOf(contract: Contract): ContractChecker {
  let checker = checkers.get(contract);
  if (!checker) checkers.set(contract, (checker = new ContractChecker(contract.document, { basePath: contract.basePath })));
  return checker;
}

/**
 * supertest with the contract check attached to every request: a response that breaks
 * openapi.yaml fails the test that received it.
 */
export function contractRequest(origin: string, contract: Contract = loadContract()) {
  const checker = checkerOf(contract);
  const agent = request(origin);
  const call = (method: Method) => (url: string) =>
    agent[method](url).expect((res) => {
      const observed: ObservedResponse = {
        method: method.toUpperCase(),
        url,
        status: res.status,
        headers: res.headers,
        body: res.body as unknown,
        text: res.text,
      };
      checker.check(observed);
      checkServerHeaders(observed, contract);
    });
  return {
    get: call('get'),
    head: call('head'),
    post: call('post'),
    put: call('put'),
    patch: call('patch'),
    delete: call('delete'),
    options: call('options'),
  };
}

export interface TestApi {
  /** The server, built as production builds it (createHttpServer), listening on 127.0.0.1. */
  server: Server;
  /** Its listening sockets, as production listens (src/http/listen.ts). */
  listening: Listening;
  /** Where it listens, e.g. http://127.0.0.1:41234. */
  origin: string;
  api: ReturnType<typeof contractRequest>;
  storage: Storage;
  /** A valid key for the "tester" account. */
  key: string;
  auth: { Authorization: string };
  /** The key as the headers the document's first scheme takes it in (bearer, basic as tester:key, an apiKey header or cookie). */
  credentials: Record<string, string>;
}

export interface TestApiOptions {
  /** Where the fresh store lives (default SQLite); ignored when storage is given. */
  backend?: Backend;
  storage?: Storage;
  clock?: Clock;
  contract?: Contract;
  /** The server's timeouts; production's defaults otherwise. */
  timeouts?: ServerTimeouts;
  /** How the server closes a connection after its last answer; production's limits otherwise. */
  linger?: LingerLimits;
  /** Its shutdown state, for tests that shut it down. */
  lifecycle?: Lifecycle;
  /** Where the server logs; silent by default. */
  logger?: Logger;
  /** Replaces these operations' handlers (the others are the real ones on this storage). */
  handlers?: Partial<OperationHandlers>;
  /** Where requests and errors are counted; none by default. */
  metrics?: HttpMetrics;
  /** Rate limits; none by default (production's come from the config). */
  rateLimits?: RateLimitSettings;
  trustProxyHops?: number;
  /** A check of each handler's outcome before it is written (npm run dev's: src/dev/response-check.ts); none by default. */
  checkOutcomes?: OutcomeCheck;
}

/** The headers that carry an account's key in the first scheme the document asks for (none: it is open). */
export function credentialHeaders(contract: Contract, account: string, key: string): Record<string, string> {
  const scheme = contract.security.unmatched.alternatives[0]?.[0];
  if (scheme === undefined) return {};
  switch (scheme.kind) {
    case 'bearer':
      return { Authorization: `Bearer ${key}` };
    case 'basic':
      return { Authorization: `Basic ${Buffer.from(`${account}:${key}`).toString('base64')}` };
    case 'apiKey':
      if (scheme.in === 'header') return { [scheme.parameter]: key };
      if (scheme.in === 'cookie') return { Cookie: `${scheme.parameter}=${key}` };
      throw new Error(`a key in the query (${scheme.parameter}) goes in the URL, not in headers`);
  }
}

/** A fresh, empty store on the backend, closed after the test (or the file) that opened it. */
export async function openTestStorage(backend: Backend = sqliteBackend): Promise<Storage> {
  const storage = await openStorage(await backend.createStoreUrl());
  closeLater(storage);
  return storage;
}

export async function createTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const storage = options.storage ?? (await openTestStorage(options.backend));
  const { key } = await issueApiKey(storage, 'tester');
  const contract = options.contract ?? loadContract();
  const server = createHttpServer({
    contract,
    storage,
    logger: options.logger ?? createLogger('silent'),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.linger ? { linger: options.linger } : {}),
    ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    ...(options.trustProxyHops ? { trustProxyHops: options.trustProxyHops } : {}),
    ...(options.checkOutcomes ? { checkOutcomes: options.checkOutcomes } : {}),
    handlers: {
      ...createHandlers({ storage, basePath: contract.basePath, ...(options.clock ? { clock: options.clock } : {}) }),
      ...options.handlers,
    },
  });
  const listening = await listen(server, { port: 0, host: '127.0.0.1' });
  closeLater(listening);
  const origin = listening.url;
  return {
    server,
    listening,
    origin,
    api: contractRequest(origin, contract),
    storage,
    key,
    auth: { Authorization: `Bearer ${key}` },
    credentials: credentialHeaders(contract, 'tester', key),
  };
}
