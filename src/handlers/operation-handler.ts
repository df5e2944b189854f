import type { Request, Response } from 'express';
import type { operations } from '../../generated/openapi.js';
import type { AuthenticatedLocals } from '../http/middleware/authenticate.js';

/** Every operationId in openapi.yaml. */
export type OperationId = keyof operations;

type Operation<K extends OperationId> = operations[K];
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type SuccessStatus = 200 | 201 | 202 | 204;

export type PathParams<K extends OperationId> = Operation<K>['parameters'] extends { path: infer P extends object }
  ? P
  : Record<string, never>;
export type QueryParams<K extends OperationId> = Operation<K>['parameters'] extends { query?: infer Q extends object }
  ? Q
  : Record<string, never>;
export type RequestBody<K extends OperationId> = JsonOf<Operation<K>['requestBody']>;
/** The body of the operation's 2xx responses; errors are thrown as ApiError, never sent by handlers. */
export type SuccessBody<K extends OperationId> = JsonOf<Operation<K>['responses'][Extract<keyof Operation<K>['responses'], SuccessStatus>]>;

/**
 * An Express handler typed from the generated spec types: a spec change the handler no longer
 * satisfies (a renamed field, a new required parameter, a changed response) fails `tsc`.
 * Requests reaching it have passed authentication and validation against openapi.yaml.
 */
export type OperationHandler<K extends OperationId> = (
  req: Request<PathParams<K>, SuccessBody<K>, RequestBody<K>, QueryParams<K>>,
  res: Response<SuccessBody<K>, AuthenticatedLocals>,
) => Promise<void> | void;

/** One handler for every operation of the spec: an operation added to openapi.yaml fails `tsc` until handled. */
export type OperationHandlers = { [K in OperationId]: OperationHandler<K> };
