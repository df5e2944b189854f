import type { components } from '../../generated/openapi.js';
import { apiError } from '../errors/api-error.js';
import type { ResourceRules } from '../handlers/resource-rules.js';

/**
 * The business rules of Order, which the handlers `npm run generate` writes for its operations
 * call (generated/handlers/). Written once by `npm run generate`, never overwritten: yours to edit.
 * Raise an error of openapi.yaml's ErrorCode with apiError (src/errors/api-error.ts).
 */
export const rules: ResourceRules<components['schemas']['NewOrder']> = {
  /** A ship date is today (UTC) or later: the validator has already refused a day not on the calendar. */
  beforeCreate(order, { now }) {
    if (order.shipDate !== undefined && order.shipDate < now.toISOString().slice(0, 10))
      throw apiError('ship_date_in_past', { shipDate: order.shipDate });
    return order;
  },
};
