// Starts a corpus worker (corpus-plan-worker.ts) from the package's sources, through tsx: loader
// hooks given to the main thread do not reach a worker thread on Node 20.
import { tsImport } from 'tsx/esm/api';

await tsImport('./corpus-plan-worker.ts', import.meta.url);
