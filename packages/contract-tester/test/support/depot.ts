import type { OpenApiDocument } from '../../src/spec/openapi.js';
import { BedError, BedStore, startBedServer, type BedDefinition, type Bug } from './test-bed/bed-server.js';

const problem = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
const parcelId = { name: 'parcelId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };

/**
 * A parcel depot that declares no links: a create answers 201 with no body and the parcel's public
 * URL in `Location` (on the gateway's origin, not the server's, as an API behind a proxy does); its
 * reads and deletes are at /parcels/{parcelId}. Only the last segment of `Location` names what the
 * create made. With `bodies`, the create answers the parcel instead, its `id` an integer and its
 * `parcelId` a tracking code of another type that no path parameter takes.
 */
export function depotSpec(bodies = false): OpenApiDocument {
  const created = bodies
    ? { description: 'Made.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Parcel' } } } }
    : { description: 'Made.', headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } } };
  return {
    openapi: '3.1.0',
    info: { title: 'Depot', version: '1.0.0' },
    servers: [{ url: 'http://localhost/api' }],
    paths: {
      '/parcels': {
        post: {
          operationId: 'sendParcel',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewParcel' } } },
          },
          responses: { '201': created, '400': { description: 'Invalid.', ...problem } },
        },
      },
      '/parcels/{parcelId}': {
        parameters: [parcelId],
        get: {
          operationId: 'getParcel',
          responses: {
            '200': { description: 'The parcel.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Parcel' } } } },
            '400': { description: 'Invalid.', ...problem },
            '404': { description: 'None.', ...problem },
          },
        },
        delete: {
          operationId: 'collectParcel',
          responses: {
            '204': { description: 'Collected.' },
            '400': { description: 'Invalid.', ...problem },
            '404': { description: 'None.', ...problem },
          },
        },
      },
    },
    components: {
      schemas: {
        NewParcel: {
          type: 'object',
          required: ['weight'],
          additionalProperties: false,
          properties: { weight: { type: 'integer', minimum: 1, maximum: 50 }, label: { type: 'string', maxLength: 20 } },
        },
        Parcel: {
          type: 'object',
          required: ['id', 'parcelId', 'weight'],
          properties: {
            id: { type: 'integer', minimum: 1 },
            parcelId: { type: 'string', pattern: '^P-[0-9]+$' },
            weight: { type: 'integer' },
            label: { type: 'string' },
          },
        },
        Problem: { type: 'object', required: ['title', 'status'], properties: { title: { type: 'string' }, status: { type: 'integer' } } },
      },
    },
  };
}

type Parcel = { id: number; parcelId: string; weight: number; label?: string };

export function depotDefinition(bug: Bug | undefined, bodies = false): BedDefinition {
  const parcels = new BedStore<Parcel>(bug);
  let next = 1;
  return {
    document: depotSpec(bodies),
    accepts: () => true,
    error: (status, message) => ({ status, contentType: 'application/problem+json', body: { title: message, status } }),
    handlers: {
      sendParcel: ({ body }) => {
        const id = next++;
        const parcel = parcels.create(String(id), { ...(body as Omit<Parcel, 'id' | 'parcelId'>), id, parcelId: `P-${id}` });
        if (bodies) return { status: 201, body: parcel };
        return { status: 201, headers: { Location: `https://depot.example/api/parcels/${id}` } };
      },
      getParcel: ({ params }) => ({ status: 200, body: parcels.get(String(params['parcelId'])) }),
      collectParcel: ({ params }) => {
        if (typeof params['parcelId'] !== 'number') throw new BedError(400, 'not a parcel id');
        parcels.delete(String(params['parcelId']));
        return { status: 204 };
      },
    },
  };
}

export const startDepot = (bug?: Bug, bodies = false) => startBedServer(depotDefinition(bug, bodies), bug);
