import { CHECK } from '../registry/checks.js';
import { responseCheck } from './response-check.js';

/** The profile's required headers are on every response, with their exact values. */
export const requiredResponseHeaders = responseCheck(
  CHECK.required_response_headers,
  'every',
  function requiredResponseHeaders({ profile, response }) {
    return Object.entries(profile.requiredHeaders)
      .filter(([name, value]) => response.headers[name] !== value)
      .map(([name, value]) => `${name}: ${value} is missing (got ${JSON.stringify(response.headers[name])})`);
  },
);
