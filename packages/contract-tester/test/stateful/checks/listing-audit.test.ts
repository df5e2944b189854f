import { describe, expect, it } from 'vitest';
import { listingAudit, type Listed } from '../../../src/stateful/checks/listing-audit.js';
import type { Resource, ResourceLedger } from '../../../src/stateful/resources.js';
import { PET_RESOURCE } from '../../support/sequence-step.js';

/** A listing of pets as read, and a ledger holding these resources (identified by `/id`). */
function listed(items: unknown[], resources: Resource[], gone = false): Listed {
  const ledger = { resources, identityOf: (resource: Resource) => (resource.created as { id: number }).id } as unknown as ResourceLedger;
  return { listing: 'listPets', create: 'createPet', identity: '/id', items, pages: 1, ledger, goneNow: () => Promise.resolve(gone) };
}

describe('listing_audit', () => {
  it('finds each resource the run made listed once, as it last was, and none it deleted', async () => {
    expect(await listingAudit.check(listed([{ id: 1, name: 'Rex' }], [PET_RESOURCE]))).toEqual([]);
    expect(await listingAudit.check(listed([{ id: 1, name: 'Max' }], [PET_RESOURCE]))).toEqual([
      '/v1/pets/1 last answered {"id":1,"name":"Rex"}, but listPets lists {"id":1,"name":"Max"}',
    ]);
    expect(await listingAudit.check(listed([], [PET_RESOURCE]))).toEqual([
      '{"id":1,"name":"Rex"}, created by createPet (/v1/pets/1), appears 0 times in listPets (1 pages, 0 items)',
    ]);
    expect(await listingAudit.check(listed([{ id: 1, name: 'Rex' }], [{ ...PET_RESOURCE, state: 'deleted' }]))).toEqual([
      '{"id":1,"name":"Rex"} (/v1/pets/1), deleted, is still listed by listPets',
    ]);
    expect(await listingAudit.check(listed([], [{ ...PET_RESOURCE, state: 'uncertain' }]))).toEqual([]);
    expect(await listingAudit.check(listed([], [{ ...PET_RESOURCE, createdBy: 'createOrder' }]))).toEqual([]);
  });
});
