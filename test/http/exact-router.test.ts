import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { exactRouter } from '../../src/http/exact-router.js';

describe('exactRouter', () => {
  it('matches a path only as written: case-sensitive, no trailing slash', async () => {
    const router = exactRouter();
    router.get('/pets', (_req, res) => void res.end('pets'));
    const app = express().use(router);
    expect((await request(app).get('/pets')).text).toBe('pets');
    expect((await request(app).get('/Pets')).status).toBe(404);
    expect((await request(app).get('/pets/')).status).toBe(404);
  });
});
