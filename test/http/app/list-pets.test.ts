import { beforeEach, describe, expect, it } from 'vitest';
import type { Pet } from '../../../src/storage/pets/pets.js';
import { allBackends } from '../../support/backends.js';
import { PAGE_SIZE, PET_STATUSES as STATUSES } from '../../support/spec-values.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

async function seed(t: TestApi, count: number): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let i = 0; i < count; i += 1) {
    // Each status in turn, then none.
    const status = STATUSES[i % (STATUSES.length + 1)];
    pets.push(await t.storage.createPet({ name: `pet-${i}`, categoryId: (i % 5) + 1, ...(status ? { status } : {}) }));
  }
  return pets;
}

function nextLink(link: string | undefined): string | undefined {
  return link ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined;
}

/** Follows rel="next" from the first URL and returns every page. */
async function allPages(t: TestApi, first: string): Promise<Pet[][]> {
  const pages: Pet[][] = [];
  for (let url: string | undefined = first; url;) {
    const res = await t.api.get(url).set(t.auth).expect(200);
    pages.push(res.body as Pet[]);
    url = nextLink(res.headers['link']);
  }
  return pages;
}

describe.each(allBackends)('listPets [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
  });

  it('returns an empty page and no next link for an empty store', async () => {
    const res = await t.api.get('/v1/pets').set(t.auth).expect(200);
    expect(res.body).toEqual([]);
    expect(res.headers['link']).toBeUndefined();
  });

  it(`returns at most ${PAGE_SIZE.default} by default, ordered by id ascending`, async () => {
    const pets = await seed(t, PAGE_SIZE.default + 5);
    const res = await t.api.get('/v1/pets').set(t.auth).expect(200);
    expect(res.body).toEqual(pets.slice(0, PAGE_SIZE.default));
    expect(res.headers['link']).toMatch(new RegExp(`^</v1/pets\\?limit=${PAGE_SIZE.default}&cursor=[A-Za-z0-9_-]+>; rel="next"$`));
  });

  it('omits status on pets created without one (never null)', async () => {
    await t.storage.createPet({ name: 'Nameless', categoryId: 1 });
    const res = await t.api.get('/v1/pets').set(t.auth).expect(200);
    expect(res.body).toEqual([{ id: 1, name: 'Nameless', categoryId: 1 }]);
    expect(res.text).not.toContain('status');
  });

  it.each([1, PAGE_SIZE.maximum])('accepts limit=%i', async (limit) => {
    await seed(t, PAGE_SIZE.maximum + 1);
    const res = await t.api.get(`/v1/pets?limit=${limit}`).set(t.auth).expect(200);
    expect(res.body).toHaveLength(limit);
  });

  it.each([
    ['limit=0', 'query.limit must be >= 1'],
    [`limit=${PAGE_SIZE.maximum + 1}`, `query.limit must be <= ${PAGE_SIZE.maximum}`],
    ['limit=-1', 'query.limit must be >= 1'],
    ['limit=abc', 'query.limit must be integer'],
    ['limit=1.5', 'query.limit must be integer'],
    ['limit=', "Empty value found for query parameter 'limit'"],
    ['limit=5&limit=6', 'query.limit must be integer'],
    ['status=AVAILABLE', `query.status must be equal to one of the allowed values: ${STATUSES.join(', ')}`],
    ['status=lost', `query.status must be equal to one of the allowed values: ${STATUSES.join(', ')}`],
    ['bogus=1', "Unknown query parameter 'bogus'; this operation takes no such parameter"],
    ['offset=20', "Unknown query parameter 'offset'; this operation takes no such parameter"],
  ])('rejects %s with 400 naming the parameter and rule', async (query, sentence) => {
    const res = await t.api.get(`/v1/pets?${query}`).set(t.auth).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: `Invalid request: ${sentence}.` });
  });

  it('returns only pets with the requested status', async () => {
    const pets = await seed(t, 30);
    for (const status of STATUSES) {
      const res = await t.api.get(`/v1/pets?status=${status}&limit=${PAGE_SIZE.maximum}`).set(t.auth).expect(200);
      expect(res.body).toEqual(pets.filter((pet) => pet.status === status));
    }
  });

  it.each([
    ['no filter', '', 47, 10],
    ['a status filter', 'status=pending&', 47, 5],
    ['pages that divide the total exactly', '', 40, 10],
    ['one page exactly full', '', 10, 10],
  ])('pages through everything once with %s, the last page without a next link', async (_label, filter, total, limit) => {
    const pets = await seed(t, total);
    const status = /status=(\w+)/.exec(filter)?.[1];
    const expected = status ? pets.filter((pet) => pet.status === status) : pets;
    const pages = await allPages(t, `/v1/pets?${filter}limit=${limit}`);
    expect(pages.flat()).toEqual(expected);
    expect(pages.every((page) => page.length > 0)).toBe(true);
    expect(pages.length).toBe(Math.ceil(expected.length / limit));
  });

  it('keeps limit and status in the next link', async () => {
    await seed(t, 30);
    const res = await t.api.get('/v1/pets?status=sold&limit=2').set(t.auth).expect(200);
    expect(nextLink(res.headers['link'])).toMatch(/^\/v1\/pets\?limit=2&status=sold&cursor=/);
  });

  it('sees pets added after the first page was read', async () => {
    await seed(t, 3);
    const first = await t.api.get('/v1/pets?limit=3').set(t.auth).expect(200);
    expect(first.headers['link']).toBeUndefined();
    await t.storage.createPet({ name: 'late', categoryId: 1 });
    const again = await t.api.get('/v1/pets?limit=3').set(t.auth).expect(200);
    const rest = await t.api.get(nextLink(again.headers['link'])!).set(t.auth).expect(200);
    expect(rest.body).toEqual([{ id: 4, name: 'late', categoryId: 1 }]);
  });

  it.each([
    [
      'a cursor this service did not issue',
      'cursor=aGVsbG8',
      'invalid_cursor',
      'query.cursor was not issued by this service; use the Link rel="next" header of the previous page.',
    ],
    [
      'a cursor of the wrong alphabet',
      'cursor=a%2Bb',
      'validation_failed',
      'Invalid request: query.cursor must match pattern "^[A-Za-z0-9_-]+$".',
    ],
  ])('rejects %s with 400', async (_label, query, code, message) => {
    const res = await t.api.get(`/v1/pets?${query}`).set(t.auth).expect(400);
    expect(res.body).toEqual({ code, status: 400, message });
  });
});
