import { readDeprecations, type Deprecation } from './deprecations.js';
import { readErrorCodes, type ErrorCode } from './error-codes.js';
import { basePathOf, listOperations, parseSpec, readSpecText, type OpenApiDocument, type OperationEntry } from './spec.js';

/** Everything the server takes from openapi.yaml, read and checked once at start-up. */
export interface Contract {
  document: OpenApiDocument;
  basePath: string;
  operations: OperationEntry[];
  errorCodes: ReadonlyMap<ErrorCode, number>;
  deprecations: Deprecation[];
  maxRequestBodyBytes: number;
  /** The text of openapi.yaml, comments included, when the document was read from it as is. */
  sourceText?: string;
}

export function contractFromDocument(document: OpenApiDocument): Contract {
  const maxRequestBodyBytes = document['x-max-request-body-bytes'];
  if (!Number.isInteger(maxRequestBodyBytes) || (maxRequestBodyBytes as number) <= 0) {
    throw new Error('openapi.yaml: x-max-request-body-bytes must be a positive integer');
  }
  return {
    document,
    basePath: basePathOf(document),
    operations: listOperations(document),
    errorCodes: readErrorCodes(document),
    deprecations: readDeprecations(document),
    maxRequestBodyBytes: maxRequestBodyBytes as number,
  };
}

let cached: Contract | undefined;

/** The contract of openapi.yaml at the package root. */
export function loadContract(): Contract {
  if (!cached) {
    const sourceText = readSpecText();
    cached = { ...contractFromDocument(parseSpec(sourceText)), sourceText };
  }
  return cached;
}
