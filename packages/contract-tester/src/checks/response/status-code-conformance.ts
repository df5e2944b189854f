import { defineCheck } from '../define.js';
import type { Problem, ResponseContext } from '../response-check.js';

/**
 * The status is one the operation documents, unless the request's intent excuses it: 401 or 403
 * without valid credentials, any 4xx to an invalid request where the operation documents no client error.
 */
export const statusCodeConformance = defineCheck({
  name: 'status_code_conformance',
  on: 'default',
  description: 'a status the operation documents, exactly, as a range or as default',
  readsValidAnswers: true,
  scope: 'routed',
  check: function statusCodeConformance({ route, documented, response, intent }: ResponseContext): Problem[] {
    if (documented || !route) return [];
    const { status } = response;
    const responses = route.operation.responses ?? {};
    const documentsClientErrors = Object.keys(responses).some((code) => /^4|^default$/i.test(code));
    const excused =
      (intent === 'unauthenticated' && (status === 401 || status === 403)) ||
      (intent !== 'valid' && status >= 400 && status < 500 && !documentsClientErrors);
    if (excused) return [];
    return [`status ${status} is not documented for ${route.id} (documented: ${Object.keys(responses).join(', ')})`];
  },
});
