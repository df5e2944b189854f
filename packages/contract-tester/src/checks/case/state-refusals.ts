import { object, only, statuses } from '../../settings.js';
import { briefly, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** The client errors a valid request may get. */
function refusalStatuses(setting: unknown, where: string): number[] {
  const rule = object(setting, where);
  only(rule, ['statuses'], where);
  return statuses(rule, 'statuses', where);
}

/** A valid request gets no client error but those the profile lists. */
export const stateRefusals = defineCheck({
  name: 'state_refusals',
  on: 'profile',
  description: 'a valid request is refused (4xx) only with the statuses listed',
  settings: (setting: unknown, where: string) => ({ stateRefusals: refusalStatuses(setting, where) }),
  answer: function stateRefusals({ response, strict }: CaseAnswer): string[] {
    const { status } = response;
    const allowed = strict.stateRefusals;
    if (!allowed || status < 400 || status >= 500 || allowed.includes(status)) return [];
    return [`a valid request may be refused only with ${allowed.join(', ')}, but got ${briefly(response)}`];
  },
});
