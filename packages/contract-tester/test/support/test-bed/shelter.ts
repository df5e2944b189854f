import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../../src/spec/load.js';
import type { OpenApiDocument } from '../../../src/spec/openapi.js';
import { BedError, BedStore, startBedServer, withResponseBug, type Bug, type BedDefinition } from './bed-server.js';

/** The shelter: in the shape of OAI's petstore-expanded and swagger-api's petstore (see shelter.yaml). */
export const SHELTER_SPEC = fileURLToPath(new URL('./shelter.yaml', import.meta.url));
export const SHELTER_CREDENTIALS = { oauth: 'oauth-token-1', apiKey: 'api-key-1' };

type Animal = { id: number; name: string; species: string; tag?: string | null; mother?: Animal };

export function shelterDefinition(document: OpenApiDocument, bug?: Bug): BedDefinition {
  const animals = new BedStore<Animal>(bug);
  let next = 0;
  const show = (animal: Animal) => withResponseBug(animal, bug, 'name', 'id');
  const idOf = (params: Record<string, unknown>) => String(params['id']);
  return {
    document,
    accepts: (scheme, value) => SHELTER_CREDENTIALS[scheme as keyof typeof SHELTER_CREDENTIALS] === value,
    error: (status, message) => ({ status, body: { code: status, message } }),
    handlers: {
      findAnimals: ({ query }) => {
        const limit = (query['limit'] as number | undefined) ?? 20;
        // The planted 500 (documented by `default`, but a server error still): the largest page.
        if (bug === 'server-error' && limit === 50) throw new Error('page too large');
        const tags = query['tags'] as string[] | undefined;
        const found = animals.list().filter((animal) => !tags?.length || (animal.tag != null && tags.includes(animal.tag)));
        return { status: 200, body: found.slice(0, limit).map(show) };
      },
      addAnimal: ({ body }) => {
        next += 1;
        const animal = { ...(body as Omit<Animal, 'id'>), id: next };
        return { status: 200, body: show(animals.create(String(next), animal)) };
      },
      findAnimal: ({ params }) => ({ status: 200, body: show(animals.get(idOf(params))) }),
      deleteAnimal: ({ params }) => {
        animals.delete(idOf(params));
        return { status: 204 };
      },
      uploadPhoto: ({ params, body }) => {
        animals.get(idOf(params));
        const bytes = body as Buffer;
        if (!bytes.length) throw new BedError(400, 'no photo');
        return { status: 200, body: { bytes: bytes.length } };
      },
    },
  };
}

export async function startShelter(bug?: Bug) {
  return startBedServer(shelterDefinition(await loadSpec(SHELTER_SPEC), bug), bug);
}
