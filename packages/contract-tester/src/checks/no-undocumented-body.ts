import { CHECK } from '../registry/checks.js';
import { responseCheck } from './response-check.js';

/** A response whose status documents no content has no body. */
export const noUndocumentedBody = responseCheck(
  CHECK.no_undocumented_body,
  'documented',
  function noUndocumentedBody({ documented, response, head, profile }) {
    if (head || !profile.checks.has(CHECK.no_undocumented_body)) return [];
    const documentsContent = Object.keys(documented!.value.content ?? {}).length > 0;
    return !documentsContent && response.text ? ['the spec documents no body, but one was sent'] : [];
  },
);
