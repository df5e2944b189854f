import { CHECK } from '../registry/checks.js';
import { responseCheck } from './response-check.js';

/** HEAD is answered as GET without the body (RFC 9110 §9.3.2). */
export const headAsGet = responseCheck(CHECK.head_as_get, 'every', function headAsGet({ head, response }) {
  return head && response.text ? ['a response to HEAD must not have a body (RFC 9110 §9.3.2)'] : [];
});
