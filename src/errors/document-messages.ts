import type { ERROR_STATUSES } from '../../generated/contract.js';
import type { StackErrorCode } from './stack-codes.js';

/** The codes the document's error-code table adds to the stack's own (none when it has no table). */
export type DocumentErrorCode = Exclude<keyof typeof ERROR_STATUSES, StackErrorCode>;

/**
 * The messages of this API's own error codes, those its handlers raise: written by hand, one per
 * code the document's error-code table adds (tsc fails while one is missing or left over).
 */
export const DOCUMENT_ERROR_MESSAGES = {
  pet_not_found: ({ petId }: { petId: number }) => `No pet with id ${petId}.`,
  order_not_found: ({ orderId }: { orderId: number }) => `No order with id ${orderId}.`,
  order_pet_not_found: ({ petId }: { petId: number }) => `No pet with id ${petId}: an order is for an animal of the catalogue.`,
  ship_date_in_past: ({ shipDate }: { shipDate: string }) => `shipDate ${shipDate} is in the past: send today (UTC) or a later date.`,
} as const satisfies { [C in DocumentErrorCode]: string | ((params: never) => string) };
