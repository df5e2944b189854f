import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import type { OperationHandlers } from '../../src/handlers/operation.js';
import { operationRouter } from '../../src/http/routes.js';

const contract = loadContract();
const pet = { id: 7, name: 'Rex', categoryId: 1 };
const handlers: OperationHandlers = {
  listPets: async () => ({ status: 200, body: [pet] }),
  createPet: async () => ({ status: 201, body: pet, headers: { Location: '/v1/pets/7' } }),
  getPet: async () => ({ status: 200, body: pet }),
  listStoreOrders: () => Promise.reject(new Error('not here')),
};

describe('operationRouter', () => {
  it('routes each operation of the spec, at its path template, to its handler', async () => {
    const app = express().use(operationRouter(contract, handlers));
    expect((await request(app).get('/pets')).body).toEqual([pet]);
    expect((await request(app).post('/pets')).status).toBe(201);
    expect((await request(app).get('/pets/7')).body).toEqual(pet);
    expect((await request(app).delete('/pets/7')).status).toBe(404);
  });

  it('refuses to start with an operation that has no handler', () => {
    const { getPet, ...incomplete } = handlers;
    expect(() => operationRouter(contract, incomplete as OperationHandlers)).toThrow('openapi.yaml operation getPet has no handler');
  });
});
