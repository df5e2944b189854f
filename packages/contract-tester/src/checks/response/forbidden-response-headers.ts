import { strings } from '../../settings.js';
import { defineCheck } from '../define.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** The profile's forbidden headers are absent from every response. */
export const forbiddenResponseHeaders = defineCheck({
  name: 'forbidden_response_headers',
  on: 'profile',
  description: 'no response carries these headers',
  settings: (setting: unknown, where: string) => ({ forbiddenHeaders: strings(setting, where).map((header) => header.toLowerCase()) }),
  judgesForm: true,
  readsValidAnswers: true,
  scope: 'every',
  check: function forbiddenResponseHeaders({ profile, response }: ResponseContext): Problem[] {
    return profile.forbiddenHeaders.filter((name) => response.headers[name] !== undefined).map((name) => `${name} must not be sent`);
  },
});
