import { expect } from 'vitest';

interface Closable {
  close(): Promise<void>;
}

const openedInTests: Closable[] = [];
const openedInHooks: Closable[] = [];

/** Closed after the test that opened it, or, opened in beforeAll, once the file's tests are done (see cleanup.ts). */
export function closeLater(resource: Closable): void {
  (expect.getState().currentTestName === undefined ? openedInHooks : openedInTests).push(resource);
}

async function closeAll(resources: Closable[]): Promise<void> {
  // Servers were registered after their storage: close them first.
  for (const resource of resources.splice(0).reverse()) await resource.close();
}

export const closeTestResources = () => closeAll(openedInTests);
export const closeFileResources = () => closeAll(openedInHooks);
