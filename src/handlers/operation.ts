import type { DefaultedParameters, OPERATIONS, OperationResults } from '../../generated/contract.js';
import type { operations } from '../../generated/openapi.js';
import type { Principal } from '../storage/api-keys.js';
import type { RecordedResponse } from '../storage/idempotency.js';
import type { MaybePromise } from '../storage/resources.js';

export type { RecordedResponse };

/** Every operationId the server serves: those of openapi.yaml's paths (a webhook's is the client's to serve). */
export type OperationId = keyof typeof OPERATIONS & keyof operations;

type Parameters<K extends OperationId> = operations[K]['parameters'];
/** Parameters of one location; an empty object where the operation has none. */
type In<K extends OperationId, Where extends 'path' | 'query' | 'header'> = [NonNullable<Parameters<K>[Where]>] extends [never]
  ? Record<string, never>
  : NonNullable<Parameters<K>[Where]>;
/** Those with a default are always there once the request is validated. */
type WithDefaults<Params, Defaulted extends PropertyKey> = Omit<Params, Defaulted> &
  Required<Pick<Params, Extract<keyof Params, Defaulted>>>;
type DefaultedIn<K extends OperationId, Where extends 'query' | 'header'> = K extends keyof DefaultedParameters
  ? DefaultedParameters[K][Where]
  : never;

export type PathParams<K extends OperationId> = In<K, 'path'>;
export type QueryParams<K extends OperationId> = WithDefaults<In<K, 'query'>, DefaultedIn<K, 'query'>>;
export type HeaderParams<K extends OperationId> = WithDefaults<In<K, 'header'>, DefaultedIn<K, 'header'>>;
/** The JSON media types (as packages/openapi-document's isJsonMediaType): application/json, text/json and any +json type. */
type JsonMediaType = 'application/json' | 'text/json' | `application/${string}+json` | `text/${string}+json`;
/** The body, whichever JSON media type the spec declares it in (merge patches: the same schema in both). */
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody: { content: infer Content } }
  ? Content[Extract<keyof Content, JsonMediaType>]
  : undefined;

/**
 * What a handler is given: the request as openapi.yaml describes it, already authenticated and
 * validated, typed from generated/openapi.d.ts. Nothing of HTTP beyond what the spec declares.
 */
export interface OperationRequest<K extends OperationId> {
  readonly path: PathParams<K>;
  readonly query: QueryParams<K>;
  /** The header parameters the operation declares, by their names in the spec. */
  readonly headers: HeaderParams<K>;
  readonly body: RequestBody<K>;
  /** Who is calling: authentication ran before any handler. */
  readonly principal: Principal;
  /**
   * The result as the server would send it, byte for byte, for a handler that must record its
   * response before returning it (an Idempotency-Key's record is stored with what it created).
   */
  readonly render: (result: OperationResult<K>) => RecordedResponse;
}

/**
 * What a handler returns: one of the 2xx responses openapi.yaml documents for the operation, with
 * its body and the headers the handler is to set (generated/contract.ts). An undeclared status, a
 * wrong body or a missing required header fails `tsc`. Errors are raised (apiError), not returned.
 */
export type OperationResult<K extends OperationId> = OperationResults[K];

declare const renderedFor: unique symbol;

/**
 * A result the handler rendered (request.render) and recorded earlier, sent as it was recorded: for
 * the first time, or again as an idempotent replay. Rendered from an OperationResult<K>, so it is
 * still one of the responses the spec documents for K; the brand keeps another operation's out.
 */
export interface RecordedResult<K extends OperationId> {
  readonly recorded: RecordedResponse;
  /** A repeat of an earlier request's response: the server adds `Idempotent-Replayed: true` (x-set-by: server). */
  readonly replayed: boolean;
  readonly [renderedFor]?: K;
}

/**
 * An operation's implementation, as a function of its typed request: a promise of its result, or,
 * where storage answered at once (SQLite's reads), the result itself, raising its errors as it
 * goes, so that a read costs no promise.
 */
export type OperationHandler<K extends OperationId> = (request: OperationRequest<K>) => MaybePromise<OperationResult<K>>;

/** One that may answer with a recorded response instead (createPet, with an Idempotency-Key). */
export type RecordingOperationHandler<K extends OperationId> = (
  request: OperationRequest<K>,
) => MaybePromise<OperationResult<K> | RecordedResult<K>>;

/** One handler for every operation of the spec: an operation added to openapi.yaml fails `tsc` until handled. */
export type OperationHandlers = { [K in OperationId]: RecordingOperationHandler<K> };
