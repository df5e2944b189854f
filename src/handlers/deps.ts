import { DEFAULT_IDEMPOTENCY_RETENTION_SECONDS } from '../config.js';
import type { HandWrittenStores } from '../storage/hand-written.js';
import type { ResourceStore } from '../storage/resources.js';
import type { OperationStore } from '../storage/storage.js';

/** What the server gives createHandlers (src/handlers/index.ts). */
export interface HandlerOptions {
  /**
   * Where the operations keep what they keep: `storage.operations` has the storage query of each
   * operation marked `x-storage: query`; the generated handlers of CRUD operations use the resource
   * store; hand-written handlers, the hand-written stores (src/storage/hand-written.ts).
   */
  storage: OperationStore & ResourceStore & HandWrittenStores;
  /** The base path the API is served under, e.g. /v1, for the links handlers return. */
  basePath: string;
  /** The current instant; injected so that tests can move time. */
  clock?: () => Date;
  /** How long the record of an Idempotency-Key is kept (IDEMPOTENCY_RETENTION_SECONDS). */
  idempotencyRetentionSeconds?: number;
}

/** What every handler is made from, each taking the part it uses: the options, with their defaults. */
export type HandlerDeps = Required<HandlerOptions>;

export function handlerDeps(options: HandlerOptions): HandlerDeps {
  return {
    ...options,
    clock: options.clock ?? (() => new Date()),
    idempotencyRetentionSeconds: options.idempotencyRetentionSeconds ?? DEFAULT_IDEMPOTENCY_RETENTION_SECONDS,
  };
}
