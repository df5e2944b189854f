import { ERROR_STATUSES } from '../../generated/contract.js';
import { readContract, type Contract } from './read-contract.js';
import { parseSpec, readSpecText, type OpenApiDocument } from './spec.js';

export type { Contract };

export function contractFromDocument(document: OpenApiDocument): Contract {
  const contract = readContract(document);
  assertGeneratedFrom(contract.errorCodes);
  return contract;
}

/**
 * The error registry takes each code's status from generated/contract.ts; a spec edited without
 * `npm run generate` would send codes with stale statuses, so such a spec is refused at start-up.
 */
function assertGeneratedFrom(errorCodes: ReadonlyMap<string, number>): void {
  const generated = new Map(Object.entries(ERROR_STATUSES));
  const same = generated.size === errorCodes.size && [...errorCodes].every(([code, status]) => generated.get(code) === status);
  if (!same) throw new Error('openapi.yaml and generated/contract.ts disagree on the error codes: run `npm run generate`');
}

let cached: Contract | undefined;

/** The contract of openapi.yaml at the package root. */
export function loadContract(): Contract {
  if (!cached) {
    const sourceText = readSpecText();
    cached = { ...contractFromDocument(parseSpec(sourceText)), sourceText };
  }
  return cached;
}
