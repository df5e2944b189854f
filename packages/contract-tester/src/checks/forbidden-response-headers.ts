import { CHECK } from '../registry/checks.js';
import { responseCheck } from './response-check.js';

/** The profile's forbidden headers are absent from every response. */
export const forbiddenResponseHeaders = responseCheck(
  CHECK.forbidden_response_headers,
  'every',
  function forbiddenResponseHeaders({ profile, response }) {
    return profile.forbiddenHeaders.filter((name) => response.headers[name] !== undefined).map((name) => `${name} must not be sent`);
  },
);
