import { ConfigError, object } from '../../settings.js';
import { defineCheck } from '../define.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** Each header,, lower-cased, to its exact value. */
function requiredHeaders(setting: unknown, where: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(object(setting, where))) {
    if (typeof value !== 'string') throw new ConfigError(`${where}.${header} must be the header's value`);
    headers[header.toLowerCase()] = value;
  }
  return headers;
}

/** The profile's required headers are on every response, with their exact values. */
export const requiredResponseHeaders = defineCheck({
  name: 'required_response_headers',
  on: 'profile',
  description: 'every response carries these headers with these values',
  settings: (setting: unknown, where: string) => ({ requiredHeaders: requiredHeaders(setting, where) }),
  judgesForm: true,
  readsValidAnswers: true,
  scope: 'every',
  check: function requiredResponseHeaders({ profile, response }: ResponseContext): Problem[] {
    return Object.entries(profile.requiredHeaders)
      .filter(([name, value]) => response.headers[name] !== value)
      .map(([name, value]) => `${name}: ${value} is missing (got ${JSON.stringify(response.headers[name])})`);
  },
});
