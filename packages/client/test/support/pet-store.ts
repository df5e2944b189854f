// The pet store at the repository's root is the API this client is made for and tested against: its
// openapi.yaml, its built server and the checker that holds every answer to the spec. Only the tests
// reach into it, and only through this file; the client takes nothing of it but the types and tables
// `npm run generate` writes into generated/.
export { parseSpec, readSpecText } from '../../../../test/support/pet-store-parts.js';
export { backends, type Backend } from '../../../../test/support/backends.js';
export { launchChromium } from '../../../../test/support/browser.js';
export { checkContract, type ObservedResponse } from '../../../../test/support/contract-check.js';
export { contractCheckingFetch } from '../../../../test/support/contract-fetch.js';
export { PET_STATUSES } from '../../../../test/support/spec-values.js';
export { runKeys, startServer, tempDatabaseUrl, type RunningServer } from '../../../../test/support/processes.js';
