import { defineCheck } from '../../checks/define.js';
import { wholly } from '../resources.js';
import { whereOf, type SequenceStep } from './sequence-step.js';

/**
 * A resource the sequence made and did not delete is found, where the request names nothing but
 * the resource: a made-up photo id of it may well be 404.
 */
export const ensureResourceAvailability = defineCheck({
  name: 'ensure_resource_availability',
  on: 'default',
  description: 'a resource a create made is found until deleted',
  check: function ensureResourceAvailability({ exchange, before }: SequenceStep): string[] {
    const { request, response, operation } = exchange;
    if (before?.state !== 'present' || request.method.toUpperCase() !== 'GET' || response.status !== 404) return [];
    if (!wholly(operation, before.resource)) return [];
    return [
      `${whereOf(exchange)}: ${before.resource.path}, made by ${before.resource.createdBy} in this sequence and not deleted, is not found`,
    ];
  },
});
