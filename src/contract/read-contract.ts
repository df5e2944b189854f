import { readDeprecatedInputs, type DeprecatedInput } from './deprecated-inputs.js';
import { readDeprecations, type Deprecation } from './deprecations.js';
import { readErrorCodes } from './error-codes.js';
import { readErrorFormat, type ErrorFormat } from './error-format.js';
import { readSecurity, type Security } from './security.js';
import { isJsonMediaType, mediaTypeEssence } from 'openapi-document/media-types';
import { basePathOf, listOperations, resolveRef, type OpenApiDocument, type OperationEntry } from './spec.js';

/** Everything the server takes from openapi.yaml, read and checked once at start-up. */
export interface Contract {
  document: OpenApiDocument;
  basePath: string;
  operations: OperationEntry[];
  /** The document's error-code table: its codes and their statuses (empty without one). */
  errorCodes: ReadonlyMap<string, number>;
  /** How every error the stack writes goes out: the media type and shape the error responses declare. */
  errorFormat: ErrorFormat;
  /** What each operation's requests must carry, from its security requirements and the securitySchemes. */
  security: Security;
  deprecations: Deprecation[];
  /** The deprecated parameters and body properties a request may still use, by operationId. */
  deprecatedInputs: ReadonlyMap<string, DeprecatedInput[]>;
  maxRequestBodyBytes: number;
  /** Every media type a request body is declared in: each a JSON one, read as JSON (request-body.ts). */
  requestMediaTypes: readonly string[];
  /** `x-max-request-target-bytes`: longer request targets are answered 414. */
  maxRequestTargetBytes: number;
  /** What an `X-Request-Id` must look like to be used as given: the pattern of the response header's schema. */
  requestIdPattern: RegExp;
  /** The text of openapi.yaml, comments included, when the document was read from it as is. */
  sourceText?: string;
}

/**
 * The settings a document may state as document-level extensions, and what each is when it does not
 * (docs/starting-from-your-document.md lists them): 1 MiB of body, and the 8 KiB of request target
 * that RFC 9112 §3 asks every server to read at least.
 */
export const SETTING_DEFAULTS = {
  'x-max-request-body-bytes': 1_048_576,
  'x-max-request-target-bytes': 8192,
} as const;

/** A usable request id when the document's X-Request-Id response header states no pattern. */
export const DEFAULT_REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** A size limit the spec states as a document-level extension, or its default. */
function byteLimit(document: OpenApiDocument, name: keyof typeof SETTING_DEFAULTS): number {
  const value = document[name] === undefined ? SETTING_DEFAULTS[name] : document[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw new Error(`openapi.yaml: ${name} must be a positive integer`);
  return value;
}

interface HeaderLike {
  $ref?: string;
  schema?: { $ref?: string; pattern?: unknown };
}

/**
 * The pattern of the X-Request-Id response header's schema, wherever a response declares it (by the
 * header's name, not a component's), the one statement of what a usable request id is; the default
 * where no response declares one with a pattern.
 */
function readRequestIdPattern(document: OpenApiDocument, operations: readonly OperationEntry[]): RegExp {
  const responses = [
    ...Object.values((document.components['responses'] ?? {}) as Record<string, unknown>),
    ...operations.flatMap(({ operation }) => Object.values(operation.responses ?? {})),
  ];
  for (const response of responses) {
    const { headers = {} } = resolveRef(document, response as { headers?: Record<string, HeaderLike> });
    for (const [name, header] of Object.entries(headers)) {
      if (name.toLowerCase() !== 'x-request-id') continue;
      const { schema } = resolveRef(document, header);
      const pattern = schema === undefined ? undefined : resolveRef(document, schema).pattern;
      if (typeof pattern === 'string') return new RegExp(pattern);
    }
  }
  return DEFAULT_REQUEST_ID_PATTERN;
}

/**
 * The media types the operations' request bodies are declared in. The server parses JSON alone, so a
 * body in another media type could never be read: such a spec is refused at start-up.
 */
function readRequestMediaTypes(document: OpenApiDocument, operations: readonly OperationEntry[]): string[] {
  const mediaTypes = new Set<string>();
  for (const { method, path, operation } of operations) {
    if (operation.requestBody === undefined) continue;
    const body = resolveRef(document, operation.requestBody as { content?: Record<string, unknown> });
    for (const mediaType of Object.keys(body.content ?? {})) {
      if (!isJsonMediaType(mediaType))
        throw new Error(
          `openapi.yaml: ${method.toUpperCase()} ${path} takes ${mediaType}; the server reads JSON bodies only (application/json, text/json or a +json type)`,
        );
      mediaTypes.add(mediaTypeEssence(mediaType));
    }
  }
  return [...mediaTypes];
}

/**
 * The contract of a document, with every check the server makes of it at start-up except the one
 * against generated/ (contract.ts adds that). Kept apart from generated/ so that `npm run generate`
 * can ask whether the server would start on a spec before it writes anything.
 */
export function readContract(document: OpenApiDocument): Contract {
  const operations = listOperations(document);
  return {
    document,
    basePath: basePathOf(document, { onDisagreement: 'refuse' }),
    operations,
    errorCodes: readErrorCodes(document),
    errorFormat: readErrorFormat(document, operations),
    security: readSecurity(document, operations),
    deprecations: readDeprecations(document),
    deprecatedInputs: readDeprecatedInputs(document, operations),
    maxRequestBodyBytes: byteLimit(document, 'x-max-request-body-bytes'),
    requestMediaTypes: readRequestMediaTypes(document, operations),
    maxRequestTargetBytes: byteLimit(document, 'x-max-request-target-bytes'),
    requestIdPattern: readRequestIdPattern(document, operations),
  };
}
