import { object, only, statuses, strings } from '../../settings.js';
import type { Profile } from '../../profile.js';
import { briefly, isServerError, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** The paths outside the spec that may succeed, and the server errors any request may get. */
function exactPathsSettings(setting: unknown, where: string): Pick<Profile, 'publicPaths' | 'anyRequestStatuses'> {
  const rule = object(setting, where);
  only(rule, ['publicPaths', 'anyRequestStatuses'], where);
  const publicPaths = strings(rule['publicPaths'] ?? [], `${where}.publicPaths`).map((source) => new RegExp(source));
  return { publicPaths, anyRequestStatuses: statuses(rule, 'anyRequestStatuses', where) };
}

/**
 * A request no operation of the spec takes gets only errors (and no 5xx, which no operation
 * documents here), but on the public routes the profile names.
 */
export const exactPaths = defineCheck({
  name: 'exact_paths',
  on: 'profile',
  description: 'paths match exactly: another spelling is refused',
  settings: (setting: unknown, where: string) => (setting === true ? {} : exactPathsSettings(setting, where)),
  scope: 'unrouted',
  check: function exactPaths({ profile, response, head }: ResponseContext): Problem[] {
    if (!profile.checks.has('exact_paths')) return [];
    const { status } = response;
    const path = new URL(response.url, 'http://x').pathname;
    const isPublic = (response.method === 'GET' || head) && profile.publicPaths.some((pattern) => pattern.test(path));
    const problems: Problem[] = [];
    if (status < 400 && !isPublic) problems.push('success from a path and method the spec does not have');
    if (status >= 500 && !isPublic && !profile.anyRequestStatuses.includes(status))
      problems.push(`status ${status} for a path and method the spec does not have`);
    return problems;
  },
  /** A path the spec does not have (the tester's own misspelling of one): refused with a 4xx. */
  answer: function unknownPathRefused(answer: CaseAnswer): string[] {
    const { status } = answer.response;
    if (isServerError(answer) || (status >= 400 && status <= 499)) return [];
    return [`a path the spec does not have must be refused with a 4xx, but got ${briefly(answer.response)}`];
  },
});
