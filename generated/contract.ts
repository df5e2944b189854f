// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
import type { operations } from './openapi.js';

/**
 * The document's error-code table (the schema of consts with x-http-status): every stable error code
 * it states, with its status. Empty for a document without one: the stack's codes keep their defaults.
 */
export const ERROR_STATUSES = {
  validation_failed: 400,
  malformed_json: 400,
  invalid_utf8: 400,
  bad_request: 400,
  invalid_cursor: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  pet_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_key_in_progress: 409,
  operation_sunset: 410,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  expectation_failed: 417,
  rate_limited: 429,
  too_many_failed_authentications: 429,
  headers_too_large: 431,
  idempotency_key_reused: 422,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
  http_version_not_supported: 505,
  precondition_failed: 412,
  order_not_found: 404,
  order_pet_not_found: 422,
  ship_date_in_past: 422,
} as const satisfies Record<string, number>;

/** Every operation served (those of paths; a webhook's or a callback's is the client's to serve): its method and its path template, relative to the base path. */
export const OPERATIONS = {
  listPets: { method: 'GET', path: '/pets' },
  createPet: { method: 'POST', path: '/pets' },
  getPet: { method: 'GET', path: '/pets/{petId}' },
  deletePet: { method: 'DELETE', path: '/pets/{petId}' },
  updatePet: { method: 'PATCH', path: '/pets/{petId}' },
  listStoreOrders: { method: 'GET', path: '/store/orders' },
  createStoreOrder: { method: 'POST', path: '/store/orders' },
  getStoreOrder: { method: 'GET', path: '/store/orders/{orderId}' },
  deleteStoreOrder: { method: 'DELETE', path: '/store/orders/{orderId}' },
} as const satisfies Partial<Record<keyof operations, { method: string; path: string }>>;

/** The operations that declare an `Idempotency-Key` header parameter: safe to retry with the same key. */
export const IDEMPOTENCY_KEY_OPERATIONS = [{ method: 'POST', path: '/pets' }] as const satisfies ReadonlyArray<{
  method: string;
  path: string;
}>;

/**
 * What each operation's handler returns: one member per documented 2xx response, with its JSON body
 * and the response headers the handler sets. Headers marked `x-set-by: server` are left out: the
 * server adds them itself. An operation without a 2xx response only ever raises errors (never).
 */
export interface OperationResults {
  /** GET /pets */
  listPets: {
    status: 200;
    body: operations['listPets']['responses'][200]['content']['application/json'];
    headers?: {
      Link?: NonNullable<operations['listPets']['responses'][200]['headers']['Link']>;
    };
  };
  /** POST /pets */
  createPet: {
    status: 201;
    body: operations['createPet']['responses'][201]['content']['application/json'];
    headers: {
      Location: NonNullable<operations['createPet']['responses'][201]['headers']['Location']>;
      ETag: NonNullable<operations['createPet']['responses'][201]['headers']['ETag']>;
    };
  };
  /** GET /pets/{petId} */
  getPet: {
    status: 200;
    body: operations['getPet']['responses'][200]['content']['application/json'];
    headers: {
      ETag: NonNullable<operations['getPet']['responses'][200]['headers']['ETag']>;
    };
  };
  /** DELETE /pets/{petId} */
  deletePet: {
    status: 204;
    body?: undefined;
    headers?: Record<string, never>;
  };
  /** PATCH /pets/{petId} */
  updatePet: {
    status: 200;
    body: operations['updatePet']['responses'][200]['content']['application/json'];
    headers: {
      ETag: NonNullable<operations['updatePet']['responses'][200]['headers']['ETag']>;
    };
  };
  /** GET /store/orders */
  listStoreOrders: {
    status: 200;
    body: operations['listStoreOrders']['responses'][200]['content']['application/json'];
    headers?: {
      Link?: NonNullable<operations['listStoreOrders']['responses'][200]['headers']['Link']>;
    };
  };
  /** POST /store/orders */
  createStoreOrder: {
    status: 201;
    body: operations['createStoreOrder']['responses'][201]['content']['application/json'];
    headers: {
      Location: NonNullable<operations['createStoreOrder']['responses'][201]['headers']['Location']>;
    };
  };
  /** GET /store/orders/{orderId} */
  getStoreOrder: {
    status: 200;
    body: operations['getStoreOrder']['responses'][200]['content']['application/json'];
    headers?: Record<string, never>;
  };
  /** DELETE /store/orders/{orderId} */
  deleteStoreOrder: {
    status: 204;
    body?: undefined;
    headers?: Record<string, never>;
  };
}

/** Query and header parameters that have a default: present on every validated request. */
export interface DefaultedParameters {
  listPets: { query: 'limit'; header: never };
  listStoreOrders: { query: 'limit'; header: never };
}
