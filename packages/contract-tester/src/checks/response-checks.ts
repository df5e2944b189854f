import { contentTypeConformance } from './content-type-conformance.js';
import { errorSchemaConformance } from './error-schema-conformance.js';
import { exactPaths } from './exact-paths.js';
import { forbiddenResponseHeaders } from './forbidden-response-headers.js';
import { headAsGet } from './head-as-get.js';
import { noUndocumentedBody } from './no-undocumented-body.js';
import { requiredResponseHeaders } from './required-response-headers.js';
import { responseHeadersConformance } from './response-headers-conformance.js';
import { responseSchemaConformance } from './response-schema-conformance.js';
import { statusCodeConformance } from './status-code-conformance.js';
import { unsupportedMethod } from './unsupported-method.js';
import type { ResponseCheck } from './response-check.js';

/** The checks of one response, in the order their findings are reported. */
export const RESPONSE_CHECKS: readonly ResponseCheck[] = [
  unsupportedMethod,
  headAsGet,
  forbiddenResponseHeaders,
  requiredResponseHeaders,
  errorSchemaConformance,
  exactPaths,
  statusCodeConformance,
  responseHeadersConformance,
  noUndocumentedBody,
  contentTypeConformance,
  responseSchemaConformance,
];
