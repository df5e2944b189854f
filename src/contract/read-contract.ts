import { readDeprecatedInputs, type DeprecatedInput } from './deprecated-inputs.js';
import { readDeprecations, type Deprecation } from './deprecations.js';
import { readErrorCodes, type ErrorCode } from './error-codes.js';
import { isJsonMediaType, mediaTypeEssence } from 'openapi-document/media-types';
import { basePathOf, listOperations, resolveRef, type OpenApiDocument, type OperationEntry } from './spec.js';

/** Everything the server takes from openapi.yaml, read and checked once at start-up. */
export interface Contract {
  document: OpenApiDocument;
  basePath: string;
  operations: OperationEntry[];
  errorCodes: ReadonlyMap<ErrorCode, number>;
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

/** A size limit the spec states as a document-level extension. */
function byteLimit(document: OpenApiDocument, name: `x-${string}`): number {
  const value = document[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw new Error(`openapi.yaml: ${name} must be a positive integer`);
  return value;
}

/** components.headers.RequestId.schema.pattern, the one statement of what a usable request id is. */
function readRequestIdPattern(document: OpenApiDocument): RegExp {
  const headers = document.components['headers'] as Record<string, { schema?: { pattern?: unknown } }> | undefined;
  const pattern = headers?.['RequestId']?.schema?.pattern;
  if (typeof pattern !== 'string') throw new Error('openapi.yaml: components.headers.RequestId needs a schema with a pattern');
  return new RegExp(pattern);
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
    deprecations: readDeprecations(document),
    deprecatedInputs: readDeprecatedInputs(document, operations),
    maxRequestBodyBytes: byteLimit(document, 'x-max-request-body-bytes'),
    requestMediaTypes: readRequestMediaTypes(document, operations),
    maxRequestTargetBytes: byteLimit(document, 'x-max-request-target-bytes'),
    requestIdPattern: readRequestIdPattern(document),
  };
}
