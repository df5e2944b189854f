import { loadContract, type Contract } from '../../src/contract/contract.js';
import { readConfigFile } from 'openapi-contract-tester/config';
import { ContractChecker as SpecChecker, type ObservedResponse } from 'openapi-contract-tester/checks/response-contract';

export type { ObservedResponse };

/** The pet store's house rules (contract-test.config.json), which `npm run contract-test` and CI apply too. */
export const PET_STORE_PROFILE = readConfigFile(new URL('../../contract-test.config.json', import.meta.url).pathname);

/**
 * The one checker of responses against openapi.yaml is the contract tester's; the tests use it too,
 * with the pet store's house rules on (the one Error object, the headers every response carries,
 * what may answer a path the spec does not have).
 */
export class ContractChecker extends SpecChecker {
  constructor(document: Contract['document'], options: { basePath?: string } = {}) {
    super(document, { ...options, profile: PET_STORE_PROFILE });
  }
}

/** draft-ietf-httpapi-ratelimit-headers-11, for the one policy item this server sends per field. */
const RATE_LIMIT = /^"[A-Za-z0-9-]+";r=\d+;t=\d+$/;
const RATE_LIMIT_POLICY = /^"[A-Za-z0-9-]+";q=\d+;w=[1-9]\d*$/;

/**
 * What this server puts on every response, operation or not, beyond what the spec's operations
 * document (which the ContractChecker checks): X-Request-Id matching the spec's pattern, and the
 * rate limit fields, when sent, together and well-formed.
 */
export function checkServerHeaders({ method, url, status, headers }: ObservedResponse, contract: Contract = loadContract()): void {
  const where = `${method} ${url} → ${status}`;
  const requestId = headers['x-request-id'];
  if (typeof requestId !== 'string' || !contract.requestIdPattern.test(requestId)) {
    throw new Error(`${where}: X-Request-Id is missing or malformed: ${JSON.stringify(requestId)}`);
  }
  const [rateLimit, policy] = [headers['ratelimit'], headers['ratelimit-policy']];
  if ((rateLimit === undefined) !== (policy === undefined)) throw new Error(`${where}: RateLimit and RateLimit-Policy come together`);
  if (rateLimit !== undefined && !(RATE_LIMIT.test(String(rateLimit)) && RATE_LIMIT_POLICY.test(String(policy)))) {
    throw new Error(`${where}: malformed RateLimit ${JSON.stringify(rateLimit)} or RateLimit-Policy ${JSON.stringify(policy)}`);
  }
}

let shared: ContractChecker | undefined;

/** Throws when a response breaks openapi.yaml (see ContractChecker) or lacks the server's own headers. */
export function checkContract(response: ObservedResponse): void {
  shared ??= new ContractChecker(loadContract().document);
  shared.check(response);
  checkServerHeaders(response);
}
