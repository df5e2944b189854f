import { defineCheck } from '../define.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** The profile's required headers are on every response, with their exact values. */
export const requiredResponseHeaders = defineCheck({
  name: 'required_response_headers',
  on: 'profile',
  description: 'every response carries these headers with these values',
  judgesForm: true,
  readsValidAnswers: true,
  scope: 'every',
  check: function requiredResponseHeaders({ profile, response }: ResponseContext): Problem[] {
    return Object.entries(profile.requiredHeaders)
      .filter(([name, value]) => response.headers[name] !== value)
      .map(([name, value]) => `${name}: ${value} is missing (got ${JSON.stringify(response.headers[name])})`);
  },
});
