import { describe, expect, it } from 'vitest';
import { rules } from '../../src/rules/order.js';

const context = { now: new Date('2030-01-15T23:59:59Z'), principal: { keyId: 1, accountId: 1, accountName: 'alice' } };

describe("Order's business rules", () => {
  it('takes an order without a ship date, or one shipping today (UTC) or later, as it is', async () => {
    for (const order of [
      { petId: 1, quantity: 1 },
      { petId: 1, quantity: 1, shipDate: '2030-01-15' },
      { petId: 1, quantity: 1, shipDate: '2031-01-01' },
    ])
      expect(await rules.beforeCreate!(order, context)).toEqual(order);
  });

  it('refuses a ship date before today (UTC) with ship_date_in_past', () => {
    expect(() => rules.beforeCreate!({ petId: 1, quantity: 1, shipDate: '2030-01-14' }, context)).toThrow(
      expect.objectContaining({ code: 'ship_date_in_past', status: 422 }),
    );
  });
});
