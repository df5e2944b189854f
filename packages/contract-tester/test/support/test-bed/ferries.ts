import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../../src/spec/load.js';
import { valueAtPointer, type OpenApiDocument } from '../../../src/spec/openapi.js';
import { BedError, BedStore, startBedServer, BUGS, type BedDefinition, type Bug } from './bed-server.js';

/** The ferry line's API, the test bed's own (see ferries.yaml). */
export const FERRIES_SPEC = fileURLToPath(new URL('./ferries.yaml', import.meta.url));
/** The one OAuth2 access token the server issued (scopes read and write). */
export const FERRIES_TOKEN = 'ferry-token-read-write';

/**
 * The bugs the ferry server can have, one at a time: the test bed's that apply, and three of its
 * own, each where the spec says something beyond plain types.
 */
export const FERRY_BUGS = [
  // A payment answered with a status its enum does not have.
  'response-enum-outside-spec',
  // The bank account branch's account_type enum not checked: a bad value inside a oneOf branch taken.
  'branch-enum-unchecked',
  'ignores-auth',
  'wrong-content-type',
  'loses-creates',
  'serves-deleted',
  // The payment source's branches read without unevaluatedProperties: an unknown member taken.
  'unknown-member-accepted',
] as const;
export type FerryBug = (typeof FERRY_BUGS)[number];

type Reservation = { id: string; sailing_id: string; passenger_name: string; has_vehicle?: boolean; has_pet?: boolean };
type Source = Record<string, unknown>;

const PORTS = [
  { id: '0c6f3a52-6d0e-4c4b-9a53-1f5e2b7d8a10', name: 'Kiel Norwegenkai', address: 'Norwegenkai 1, 24103 Kiel', country_code: 'DE' },
  { id: '7a1d2e93-4b8c-4f0e-8d26-5c3b9e0f4a21', name: 'Oslo Hjortnes', address: 'Hjortneskaia, 0250 Oslo', country_code: 'NO' },
];

/** What the server itself holds to: the spec, or (with a bug of its own) the spec with one rule lost. */
function serverDocument(spec: OpenApiDocument, bug: FerryBug | undefined): OpenApiDocument {
  const document = structuredClone(spec);
  const branches = valueAtPointer(document, '/components/schemas/ReservationPayment/properties/source/oneOf') as Source[];
  if (bug === 'branch-enum-unchecked') delete (branches[1]!['properties'] as Record<string, Source>)['account_type']!['enum'];
  if (bug === 'unknown-member-accepted') for (const branch of branches) delete branch['unevaluatedProperties'];
  return document;
}

/** One page of a collection, with its links. */
function page<T>(items: T[], query: Record<string, unknown>, path: string) {
  const number = (query['page'] as number | undefined) ?? 1;
  const limit = (query['limit'] as number | undefined) ?? 10;
  const links: Record<string, string> = { self: `https://ferries.example.com${path}?page=${number}` };
  if (number * limit < items.length) links['next'] = `https://ferries.example.com${path}?page=${number + 1}`;
  if (number > 1) links['prev'] = `https://ferries.example.com${path}?page=${number - 1}`;
  return { data: items.slice((number - 1) * limit, number * limit), links };
}

/** A payment source as read back: writeOnly members left out, a card's number masked. */
function shown(source: Source): Source {
  const { cvc: _cvc, address_line1: _line1, address_line2: _line2, ...rest } = source;
  if (typeof rest['number'] === 'string' && 'cvc' in source) rest['number'] = `************${rest['number'].slice(-4)}`;
  return rest;
}

function sailings(query: Record<string, unknown>) {
  const departure = query['date'] as string;
  return [0, 1].map((index) => ({
    id: randomUUID(),
    origin: query['origin'],
    destination: query['destination'],
    // Echoed as sent: the client's own offset (or leap second) is the client's to read.
    departure_time: departure,
    arrival_time: departure,
    operator: index ? 'Color Line' : 'Fjord Line',
    price: 50 + index,
    vehicles_allowed: query['vehicles'] === true || index === 0,
    pets_allowed: query['pets'] === true || index === 1,
    links: { self: `https://ferries.example.com/ports/${String(query['origin'])}` },
  }));
}

export function ferriesDefinition(spec: OpenApiDocument, bug?: FerryBug): BedDefinition {
  const bedBug = (BUGS as readonly string[]).includes(bug ?? '') ? (bug as Bug) : undefined;
  const reservations = new BedStore<Reservation>(bedBug);
  const self = (reservation: Reservation) => ({
    ...reservation,
    links: { self: `https://ferries.example.com/reservations/${reservation.id}` },
  });
  return {
    document: serverDocument(spec, bug),
    readOnlyInput: 'ignored',
    accepts: (_scheme, value) => value === FERRIES_TOKEN,
    error: (status, message) => ({
      status,
      contentType: 'application/problem+json',
      body: { type: `https://example.com/errors/${status}`, title: message, status },
    }),
    handlers: {
      'list-ports': ({ query }) => {
        const search = (query['search'] as string | undefined)?.toLowerCase();
        const found = PORTS.filter(
          (port) =>
            (!search || `${port.name} ${port.address}`.toLowerCase().includes(search)) &&
            (query['country'] === undefined || port.country_code === query['country']),
        );
        return { status: 200, body: page(found, query, '/ports') };
      },
      'list-sailings': ({ query }) => ({ status: 200, body: page(sailings(query), query, '/sailings') }),
      'list-reservations': ({ query }) => ({ status: 200, body: page(reservations.list().map(self), query, '/reservations') }),
      'create-reservation': ({ body }) => {
        const { sailing_id, passenger_name, has_vehicle, has_pet } = body as Reservation;
        const reservation: Reservation = { id: randomUUID(), sailing_id, passenger_name };
        if (has_vehicle !== undefined) reservation.has_vehicle = has_vehicle;
        if (has_pet !== undefined) reservation.has_pet = has_pet;
        return { status: 201, body: self(reservations.create(reservation.id, reservation)) };
      },
      'get-reservation': ({ params }) => ({ status: 200, body: self(reservations.get(params['reservationId'] as string)) }),
      'cancel-reservation': ({ params }) => {
        reservations.delete(params['reservationId'] as string);
        return { status: 204 };
      },
      'pay-reservation': ({ params, body }) => {
        const reservation = reservations.get(params['reservationId'] as string);
        const { amount, currency, source } = body as { amount: number; currency: string; source: Source };
        if (!source || typeof source !== 'object') throw new BedError(400, 'a source is required');
        const payment = {
          id: randomUUID(),
          amount,
          currency,
          source: shown(source),
          status: bug === 'response-enum-outside-spec' ? 'processing' : 'succeeded',
          links: { reservation: `https://ferries.example.com/reservations/${reservation.id}` },
        };
        return { status: 200, body: payment };
      },
    },
  };
}

export async function startFerries(bug?: FerryBug) {
  const definition = ferriesDefinition(await loadSpec(FERRIES_SPEC), bug);
  return startBedServer(definition, (BUGS as readonly string[]).includes(bug ?? '') ? (bug as Bug) : undefined);
}
