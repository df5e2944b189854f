import { object, only, text } from '../../settings.js';
import type { Profile } from '../../profile.js';
import { briefly, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** How tokens are forged: like the API's own, when a prefix is given. */
function authFirstSettings(setting: unknown, where: string): Pick<Profile, 'forgedTokenPrefix'> {
  const rule = object(setting, where);
  only(rule, ['forgedTokenPrefix'], where);
  return rule['forgedTokenPrefix'] === undefined
    ? {}
    : { forgedTokenPrefix: text(rule['forgedTokenPrefix'], `${where}.forgedTokenPrefix`) };
}

/** Any request without valid credentials is answered 401, whatever else is wrong with it. */
export const authFirst = defineCheck({
  name: 'auth_first',
  on: 'profile',
  description: 'without valid credentials the answer is 401, whatever else is wrong',
  settings: (setting: unknown, where: string) => (setting === true ? {} : authFirstSettings(setting, where)),
  answer: function authFirst({ response }: CaseAnswer): string[] {
    return response.status !== 401
      ? [`without valid credentials the answer must be 401, before anything else, but got ${briefly(response)}`]
      : [];
  },
});
