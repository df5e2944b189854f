import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import { issueApiKey } from '../../src/auth/api-keys.js';
import { loadContract, type Contract } from '../../src/contract/contract.js';
import { createApp } from '../../src/http/app.js';
import type { Clock } from '../../src/http/middleware/deprecation.js';
import { createLogger } from '../../src/log/logger.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { sqliteBackend, type Backend } from './backends.js';
import { ContractChecker } from './contract-check.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

/**
 * supertest with the contract check attached to every request: a response that breaks
 * openapi.yaml fails the test that received it.
 */
export function contractRequest(app: Express, contract: Contract = loadContract()) {
  const checker = new ContractChecker(contract);
  const agent = request(app);
  const call = (method: Method) => (url: string) =>
    agent[method](url).expect((res) => {
      checker.check({
        method: method.toUpperCase(),
        url,
        status: res.status,
        headers: res.headers as Record<string, string>,
        body: res.body,
        text: res.text,
      });
    });
  return {
    get: call('get'),
    post: call('post'),
    put: call('put'),
    patch: call('patch'),
    delete: call('delete'),
    options: call('options'),
  };
}

export interface TestApi {
  app: Express;
  api: ReturnType<typeof contractRequest>;
  storage: Storage;
  /** A valid key for the "tester" account. */
  key: string;
  auth: { Authorization: string };
}

export interface TestApiOptions {
  /** Where the fresh store lives (default SQLite); ignored when storage is given. */
  backend?: Backend;
  storage?: Storage;
  clock?: Clock;
  contract?: Contract;
}

const openedInTests: Storage[] = [];
const openedInHooks: Storage[] = [];

/**
 * A fresh, empty store on the backend. One opened inside a test is closed after that test; one
 * opened in beforeAll lives until the file's tests are done (see cleanup.ts).
 */
export async function openTestStorage(backend: Backend = sqliteBackend): Promise<Storage> {
  const storage = await openStorage(await backend.createDatabaseUrl());
  (expect.getState().currentTestName === undefined ? openedInHooks : openedInTests).push(storage);
  return storage;
}

async function closeAll(storages: Storage[]): Promise<void> {
  await Promise.all(storages.splice(0).map((storage) => storage.close()));
}

export const closeTestStorages = () => closeAll(openedInTests);
export const closeFileStorages = () => closeAll(openedInHooks);

export async function createTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const storage = options.storage ?? (await openTestStorage(options.backend));
  const { key } = await issueApiKey(storage, 'tester');
  const contract = options.contract ?? loadContract();
  const app = createApp({
    contract,
    storage,
    logger: createLogger('silent'),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return { app, api: contractRequest(app, contract), storage, key, auth: { Authorization: `Bearer ${key}` } };
}
