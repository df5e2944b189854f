import { readFileSync } from 'node:fs';
import type { ObservedResponse, RequestIntent } from '../../src/checks/response-check.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import type { CheckName } from '../../src/registry/checks.js';
import { parseSpec } from '../../src/spec/load.js';
import { PET_STORE_PROFILE, petStoreDocument } from './pet-store.js';
import { BOARD_SPEC } from './test-bed/board.js';

/** The pet store's house headers, which every answer of `observed` carries unless it says otherwise. */
const HYGIENE = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'x-request-id': 'r-1' };
export const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
export const HTML_TYPE = { 'content-type': 'text/html; charset=utf-8' };
export const PET = { id: 1, name: 'Rex', categoryId: 3 };
export const ETAG = { etag: '"1-1"' };
export const DEPRECATION = {
  deprecation: '@1795219200',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
};

/** A JSON answer to `GET /v1/pets` with the house headers, changed by the parts given (a header given as undefined is left out). */
export function observed(parts: Partial<ObservedResponse>): ObservedResponse {
  const body = parts.body;
  return {
    method: 'GET',
    url: '/v1/pets',
    status: 200,
    body,
    text: body === undefined ? '' : JSON.stringify(body),
    ...parts,
    headers: { ...HYGIENE, ...JSON_TYPE, ...parts.headers },
  };
}

/** An error body of the pet store's shape. */
export const errorBody = (status: number, code: string) => ({ code, message: 'x', status });

/** The checker of the pet store's spec with its house rules (the profile). */
export const petStoreChecker = () => new ContractChecker(petStoreDocument(), { profile: PET_STORE_PROFILE });

/** The checker of the test bed's board spec, by the spec alone. */
export const boardChecker = () => new ContractChecker(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));

/** The messages of one check's findings on a response. */
export function messagesOf(checker: ContractChecker, check: CheckName, response: ObservedResponse, intent?: RequestIntent): string[] {
  return checker
    .findings(response, intent)
    .filter((finding) => finding.check === check)
    .map(({ message }) => message);
}
