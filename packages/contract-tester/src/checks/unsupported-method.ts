import { CHECK } from '../registry/checks.js';
import { responseCheck } from './response-check.js';

/** A 405 names the methods the path has (RFC 9110 §15.5.6). */
export const unsupportedMethod = responseCheck(CHECK.unsupported_method, 'every', function unsupportedMethod({ response }) {
  return response.status === 405 && response.headers['allow'] === undefined ? ['a 405 must carry Allow (RFC 9110 §15.5.6)'] : [];
});
