import { loadContract } from '../../src/contract/contract.js';
import { ContractChecker, type ObservedResponse } from '../../src/contract-test/response-contract.js';

// The one checker of responses against openapi.yaml is the contract tester's; the tests use it too.
export { ContractChecker, type ObservedResponse };

let shared: ContractChecker | undefined;

/** Throws when a response breaks openapi.yaml (see ContractChecker). */
export function checkContract(response: ObservedResponse): void {
  shared ??= new ContractChecker(loadContract().document);
  shared.check(response);
}
