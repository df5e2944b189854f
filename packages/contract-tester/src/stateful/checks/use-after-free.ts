import { defineCheck } from '../../checks/define.js';
import { addressesExactly, whereOf, type SequenceStep } from './sequence-step.js';

/** A resource the sequence deleted is not served again (but to a PUT on it, which may make it anew, or a DELETE). */
export const useAfterFree = defineCheck({
  name: 'use_after_free',
  on: 'default',
  description: 'a deleted resource is not served again',
  check: function useAfterFree(step: SequenceStep): string[] {
    const { exchange, before } = step;
    const { request, response } = exchange;
    const method = request.method.toUpperCase();
    const success = response.status >= 200 && response.status < 400;
    if (before?.state !== 'deleted' || !success || method === 'DELETE' || (method === 'PUT' && addressesExactly(step))) return [];
    return [`${whereOf(exchange)}: ${before.resource.path} was deleted (a DELETE answered 2xx), but is still served`];
  },
});
