import { defineCheck } from '../define.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** A response whose status documents no content has no body. */
export const noUndocumentedBody = defineCheck({
  name: 'no_undocumented_body',
  on: 'profile',
  description: 'a response with no documented content has no body',
  judgesForm: true,
  readsValidAnswers: true,
  scope: 'documented',
  check: function noUndocumentedBody({ documented, response, head, profile }: ResponseContext): Problem[] {
    if (head || !profile.checks.has('no_undocumented_body')) return [];
    const documentsContent = Object.keys(documented!.value.content ?? {}).length > 0;
    return !documentsContent && response.text ? ['the spec documents no body, but one was sent'] : [];
  },
});
