// The benchmarked requests. Both servers get exactly the same ones.

export const RARE_STATUS = 'sold';

/**
 * @param {number} pets rows seeded, so that getPet asks for ids that exist
 * @returns {Array<{ name: string, label: string, method: string, path: string, expect: number }>}
 */
export function scenarios(pets) {
  return [
    { name: 'list20', label: 'listPets limit=20', method: 'GET', path: '/pets?limit=20', expect: 200 },
    { name: 'list100', label: 'listPets limit=100 status=available', method: 'GET', path: '/pets?limit=100&status=available', expect: 200 },
    {
      name: 'list100rare',
      label: `listPets limit=100 status=${RARE_STATUS} (1% of rows)`,
      method: 'GET',
      path: `/pets?limit=100&status=${RARE_STATUS}`,
      expect: 200,
    },
    { name: 'get', label: 'getPet', method: 'GET', path: '/pets/{id}', ids: pets, expect: 200 },
    {
      name: 'create',
      label: 'createPet',
      method: 'POST',
      path: '/pets',
      body: { name: 'Bench', categoryId: 7, status: 'pending' },
      expect: 201,
    },
  ];
}
