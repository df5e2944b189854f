import type { DefaultedParameters } from '../../generated/contract.js';
import type { operations } from '../../generated/openapi.js';
import type { PreviousOperations } from '../../generated/predecessor.js';
import type { Principal } from '../storage/api-keys.js';
import type { MaybePromise } from '../storage/resources.js';
import type { OperationHandlers, OperationId, OperationResult, RecordedResponse, RecordedResult } from './operation.js';

/**
 * The operations of the previous major version, while one is served beside this one
 * (docs/versioning.md#serving-two-major-versions): generated/v{major}/openapi.d.ts once a new major
 * version declares `info.x-predecessor`. With one version served they are this version's own, so no
 * adapter is needed.
 */
export type { PreviousOperations };

type Location = 'path' | 'query' | 'header';
type ParametersOf<Op> = Op extends { parameters: infer Parameters } ? Parameters : Record<string, never>;
type In<Op, Where extends Location> = Where extends keyof ParametersOf<Op>
  ? [NonNullable<ParametersOf<Op>[Where]>] extends [never]
    ? Record<string, never>
    : NonNullable<ParametersOf<Op>[Where]>
  : Record<string, never>;
/** Parameters with a default are always there once validated (named as this version names them). */
type Defaulted<K, Where extends 'query' | 'header', Params> = K extends keyof DefaultedParameters
  ? Omit<Params, DefaultedParameters[K][Where]> & Required<Pick<Params, Extract<keyof Params, DefaultedParameters[K][Where]>>>
  : Params;
type BodyOf<Op> = Op extends { requestBody: { content: infer Content } }
  ? Content[Extract<keyof Content, 'application/json' | `application/${string}+json`>]
  : undefined;

/** A request of operation K as another version's generated operations type it (see OperationRequest). */
export interface VersionRequest<Ops, K extends keyof Ops> {
  readonly path: In<Ops[K], 'path'>;
  readonly query: Defaulted<K, 'query', In<Ops[K], 'query'>>;
  readonly headers: Defaulted<K, 'header', In<Ops[K], 'header'>>;
  readonly body: BodyOf<Ops[K]>;
  readonly principal: Principal;
  readonly render: (result: K extends OperationId ? OperationResult<K> : never) => RecordedResponse;
}

/** What an operation of the previous version answers: this version's result where both have it. */
type VersionResult<K> = K extends OperationId
  ? OperationResult<K> | RecordedResult<K>
  : { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * The previous version's operation K, made from this version's handlers: typically this version's
 * handler of K with the request renamed on the way in and the result on the way out.
 */
export type Adapter<Ops, K extends keyof Ops> = (
  current: OperationHandlers,
) => (request: VersionRequest<Ops, K>) => MaybePromise<VersionResult<K>>;

/**
 * Identical types, not merely assignable ones: a renamed optional parameter leaves each version's
 * query assignable to the other's.
 */
type Agrees<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
// A webhook (in the types, never served) needs no adapter.
type Differs<Ops, K extends keyof Ops> = K extends OperationId
  ? Agrees<Ops[K], operations[K]> extends true
    ? never
    : K
  : K extends keyof operations
    ? never
    : K;

/**
 * The adapters the previous version needs: one for every operation whose parameters, body or
 * responses differ from this version's, or which this version no longer has, so `tsc` names each
 * place that must choose; optional where the versions agree (this version's handler serves both).
 */
export type PredecessorAdapters<Ops> = { [K in keyof Ops as Differs<Ops, K>]-?: Adapter<Ops, K> } & {
  [K in keyof Ops as K extends Differs<Ops, K> ? never : K]?: Adapter<Ops, K>;
};

/** The previous version's handlers: this version's, replaced by its adapter where there is one. */
export function adaptHandlers<Ops>(current: OperationHandlers, adapters: PredecessorAdapters<Ops>): OperationHandlers {
  const adapted: Record<string, unknown> = { ...current };
  const byOperation: Record<string, Adapter<Ops, keyof Ops> | undefined> = adapters;
  for (const [operationId, adapter] of Object.entries(byOperation)) {
    if (adapter) adapted[operationId] = adapter(current);
  }
  return adapted as OperationHandlers;
}

/**
 * This API's adapters for its previous major version: empty while one version is served. When a
 * new major version is cut, PreviousOperations points at the previous version's types and `tsc`
 * asks for an adapter here for every operation that differs.
 */
export const PREDECESSOR_ADAPTERS: PredecessorAdapters<PreviousOperations> = {};

/** The previous version's handlers, from this version's (the server's default). */
export function predecessorHandlers(current: OperationHandlers): OperationHandlers {
  return adaptHandlers(current, PREDECESSOR_ADAPTERS);
}
