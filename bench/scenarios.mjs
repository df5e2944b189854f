// The benchmarked requests. Every server gets exactly the same ones.

export const RARE_STATUS = 'sold';

/**
 * One request of a scenario: `ids` makes it ask for a random existing pet (`{id}` in the path);
 * `remember` keeps the id its answer gives, for the connection's next `{created}` in a path;
 * `contentType` replaces application/json.
 * @typedef {{ op: string, method: string, path: string, body?: object, ids?: number, remember?: boolean, contentType?: string, expect: number }} Request
 */

/**
 * @param {number} pets rows seeded, so that getPet asks for ids that exist
 * @returns {Array<{ name: string, label: string, requests: Request[], writes: boolean, mixed?: boolean }>}
 */
export function scenarios(pets) {
  const list20 = { op: 'list20', method: 'GET', path: '/pets?limit=20', expect: 200 };
  const get = { op: 'get', method: 'GET', path: '/pets/{id}', ids: pets, expect: 200 };
  const create = { op: 'create', method: 'POST', path: '/pets', body: { name: 'Bench', categoryId: 7, status: 'pending' }, expect: 201 };
  // Name and category only: the statuses the list scenarios filter on stay as seeded.
  const update = {
    op: 'update',
    method: 'PATCH',
    path: '/pets/{id}',
    ids: pets,
    body: { name: 'Renamed', categoryId: 8 },
    contentType: 'application/merge-patch+json',
    expect: 200,
  };
  const remove = { op: 'delete', method: 'DELETE', path: '/pets/{created}', expect: 204 };
  return [
    { name: 'list20', label: 'listPets limit=20', requests: [list20], writes: false },
    {
      name: 'list100',
      label: 'listPets limit=100 status=available',
      requests: [{ op: 'list100', method: 'GET', path: '/pets?limit=100&status=available', expect: 200 }],
      writes: false,
    },
    {
      name: 'list100rare',
      label: `listPets limit=100 status=${RARE_STATUS} (1% of rows)`,
      requests: [{ op: 'list100rare', method: 'GET', path: `/pets?limit=100&status=${RARE_STATUS}`, expect: 200 }],
      writes: false,
    },
    { name: 'get', label: 'getPet', requests: [get], writes: false },
    { name: 'create', label: 'createPet', requests: [create], writes: true },
    { name: 'update', label: 'updatePet (merge patch, no If-Match)', requests: [update], writes: true },
    // A pet can be removed once: each connection removes the one it has just added, so the seeded
    // pets the other scenarios read stay. Its latencies are the deletes' alone (byOperation).
    {
      name: 'delete',
      label: 'deletePet, each after a createPet of the pet it removes',
      requests: [{ ...create, remember: true }, remove],
      writes: true,
    },
    // Each connection sends its requests in this order, round and round: 40 % list 20, 40 % get,
    // 20 % create, spread out; and the same reads without the creates, to compare their latencies.
    {
      name: 'mix',
      label: 'mixed: 80 % reads (list 20, get), 20 % createPet',
      requests: [list20, get, create, get, list20, get, list20, create, get, list20],
      writes: true,
      mixed: true,
    },
    {
      name: 'mixreads',
      label: 'the same reads without the creates',
      requests: [list20, get, get, list20, get, list20, get, list20],
      writes: false,
      mixed: true,
    },
  ];
}
