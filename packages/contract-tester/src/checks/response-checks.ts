import { contentTypeConformance } from './response/content-type-conformance.js';
import { errorSchemaConformance } from './response/error-schema-conformance.js';
import { exactPaths } from './response/exact-paths.js';
import { forbiddenResponseHeaders } from './response/forbidden-response-headers.js';
import { headAsGet } from './response/head-as-get.js';
import { noUndocumentedBody } from './response/no-undocumented-body.js';
import { requiredResponseHeaders } from './response/required-response-headers.js';
import { responseHeadersConformance } from './response/response-headers-conformance.js';
import { responseSchemaConformance } from './response/response-schema-conformance.js';
import { statusCodeConformance } from './response/status-code-conformance.js';
import { unsupportedMethod } from './response/unsupported-method.js';
import type { ResponseCheck } from './response-check.js';

/** The checks of one response, in the order their findings are reported. */
export const RESPONSE_CHECKS = [
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
] as const satisfies readonly ResponseCheck[];
