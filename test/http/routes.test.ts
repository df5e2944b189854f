import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { HTTP_METHODS } from '../../src/contract/spec.js';
import type { OperationHandlers } from '../../src/handlers/operation.js';
import { operationRouter } from '../../src/http/routes.js';

const contract = loadContract();
/** Every operation of the spec, answered by a handler that says which one it is. */
const handlers = Object.fromEntries(
  contract.operations.map(({ operation: { operationId } }) => [
    operationId,
    async () => ({ status: 299, headers: { 'X-Operation': operationId } }),
  ]),
) as unknown as OperationHandlers;

/** The path template with every parameter filled in. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, '7');

describe('operationRouter', () => {
  it('routes each operation of the spec, at its path template, to its handler', async () => {
    const app = express().use(operationRouter(contract, handlers));
    for (const { method, path, operation } of contract.operations) {
      const res = await request(app)[method as 'get'](concrete(path));
      expect([res.status, res.headers['x-operation']], `${method.toUpperCase()} ${path}`).toEqual([299, operation.operationId]);
    }
  });

  it('leaves a method the path does not have to what comes after (the 405 and 404 handlers)', async () => {
    const app = express().use(operationRouter(contract, handlers));
    const [path, item] = Object.entries(contract.document.paths)[0]!;
    const missing = HTTP_METHODS.find((method) => !(method in item) && method !== 'head' && method !== 'trace')!;
    expect((await request(app)[missing as 'get'](concrete(path))).status).toBe(404);
  });

  it('refuses to start with an operation that has no handler', () => {
    const { operationId } = contract.operations[0]!.operation;
    const incomplete: Partial<OperationHandlers> = { ...handlers };
    delete incomplete[operationId as keyof OperationHandlers];
    expect(() => operationRouter(contract, incomplete as OperationHandlers)).toThrow(
      `openapi.yaml operation ${operationId} has no handler`,
    );
  });
});
