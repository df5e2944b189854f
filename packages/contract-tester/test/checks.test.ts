import { describe, expect, it } from 'vitest';
import { planChecks } from '../src/checks.js';
import { testerSession } from './support/tester-session.js';

describe('the checks of openapi.yaml', () => {
  const session = testerSession({ origin: 'http://127.0.0.1:1', key: 'psk_x' });
  const checks = planChecks(session, session.api.operations);

  it('cover every operation, path and link, made from the spec alone', () => {
    expect(checks.map(({ name }) => name)).toEqual([
      'listPets: valid requests',
      'listPets: HEAD as GET',
      'listPets: wrong type',
      'listPets: out of bounds',
      'listPets: bad enum value',
      'listPets: bad pattern',
      'listPets: non-canonical number',
      'listPets: badly encoded text',
      'listPets: unknown path',
      'listPets: 401 without valid credentials',
      'createPet: valid requests',
      'createPet: wrong type',
      'createPet: out of bounds',
      'createPet: missing required',
      'createPet: extra property',
      'createPet: bad enum value',
      'createPet: bad format',
      'createPet: bad pattern',
      'createPet: non-canonical number',
      'createPet: badly encoded text',
      'createPet: unsupported media type',
      'createPet: body too large',
      'createPet: unknown path',
      'createPet: 401 without valid credentials',
      'getPet: valid requests',
      'getPet: HEAD as GET',
      'getPet: wrong type',
      'getPet: out of bounds',
      'getPet: bad format',
      'getPet: non-canonical number',
      'getPet: unknown path',
      'getPet: 401 without valid credentials',
      'listStoreOrders: valid requests',
      'listStoreOrders: HEAD as GET',
      'listStoreOrders: unknown path',
      'listStoreOrders: 401 without valid credentials',
      '/pets: methods not allowed',
      '/pets/{petId}: methods not allowed',
      '/store/orders: methods not allowed',
      'links: sequences',
    ]);
  });

  it('need the key except for the 401 checks', () => {
    expect(checks.filter(({ needsKey }) => !needsKey).map(({ name }) => name)).toEqual([
      'listPets: 401 without valid credentials',
      'createPet: 401 without valid credentials',
      'getPet: 401 without valid credentials',
      'listStoreOrders: 401 without valid credentials',
    ]);
  });

  it('share the budget by weight: valid requests and sequences most', () => {
    const weight = (name: string) => checks.find((check) => check.name === name)!.weight;
    expect(weight('createPet: valid requests')).toBeGreaterThan(weight('createPet: wrong type'));
    expect(weight('links: sequences')).toBeGreaterThan(weight('getPet: unknown path'));
  });

  it('of fewer operations: only theirs, and sequences only where links are', () => {
    const getPet = session.api.operations.filter(({ id }) => id === 'getPet');
    expect(planChecks(session, getPet).map(({ name }) => name)).toEqual(
      expect.arrayContaining(['getPet: valid requests', '/pets/{petId}: methods not allowed']),
    );
    expect(planChecks(session, getPet).some(({ name }) => name.startsWith('links'))).toBe(false);
  });
});
