import { CHECK } from '../registry/checks.js';
import { responseCheck, type Problem } from './response-check.js';

/**
 * A request no operation of the spec takes gets only errors (and no 5xx, which no operation
 * documents here), but on the public routes the profile names.
 */
export const exactPaths = responseCheck(CHECK.exact_paths, 'unrouted', function exactPaths({ profile, response, head }) {
  if (!profile.checks.has(CHECK.exact_paths)) return [];
  const { status } = response;
  const path = new URL(response.url, 'http://x').pathname;
  const isPublic = (response.method === 'GET' || head) && profile.publicPaths.some((pattern) => pattern.test(path));
  const problems: Problem[] = [];
  if (status < 400 && !isPublic) problems.push('success from a path and method the spec does not have');
  if (status >= 500 && !isPublic && !profile.anyRequestStatuses.includes(status))
    problems.push(`status ${status} for a path and method the spec does not have`);
  return problems;
});
