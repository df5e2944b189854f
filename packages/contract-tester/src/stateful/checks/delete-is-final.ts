import { defineCheck } from '../../checks/define.js';
import { addressesExactly, whereOf, type SequenceStep } from './sequence-step.js';

/** A second DELETE of what the sequence deleted does not succeed. */
export const deleteIsFinal = defineCheck({
  name: 'delete_is_final',
  on: 'profile',
  description: 'a second DELETE of a deleted resource does not succeed',
  check: function deleteIsFinal(step: SequenceStep): string[] {
    const { exchange, before } = step;
    const { status } = exchange.response;
    if (before?.state !== 'deleted' || exchange.request.method.toUpperCase() !== 'DELETE' || !addressesExactly(step)) return [];
    if (status < 200 || status >= 300) return [];
    return [`${whereOf(exchange)}: ${before.resource.path} was deleted already; a second DELETE must be 404 or 410`];
  },
});
