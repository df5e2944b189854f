import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../../src/spec/load.js';
import { valueAtPointer, type OpenApiDocument } from '../../../src/spec/openapi.js';
import { BedError, BedStore, startBedServer, BUGS, type BedDefinition, type Bug } from './bed-server.js';

/** The train-booking API: Bump.sh's Train Travel API, adapted (see trains.yaml). */
export const TRAINS_SPEC = fileURLToPath(new URL('./trains.yaml', import.meta.url));
/** The one OAuth2 access token the server issued (scopes read and write). */
export const TRAINS_TOKEN = 'train-token-read-write';

/**
 * The bugs the train server can have, one at a time: the test bed's that apply, and three of its
 * own, each where the spec says something beyond plain types.
 */
export const TRAIN_BUGS = [
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
export type TrainBug = (typeof TRAIN_BUGS)[number];

type Booking = { id: string; trip_id: string; passenger_name: string; has_bicycle?: boolean; has_dog?: boolean };
type Source = Record<string, unknown>;

const STATIONS = [
  { id: 'efdbb9d1-02c2-4bc3-afb7-6788d8782b1e', name: 'Berlin Hauptbahnhof', address: 'Invalidenstraße 10557 Berlin', country_code: 'DE' },
  {
    id: 'b2e783e1-c824-4d63-b37a-d8d698862f1d',
    name: 'Paris Gare du Nord',
    address: '18 Rue de Dunkerque 75010 Paris',
    country_code: 'FR',
  },
];

/** What the server itself holds to: the spec, or (with a bug of its own) the spec with one rule lost. */
function serverDocument(spec: OpenApiDocument, bug: TrainBug | undefined): OpenApiDocument {
  const document = structuredClone(spec);
  const branches = valueAtPointer(document, '/components/schemas/BookingPayment/properties/source/oneOf') as Source[];
  if (bug === 'branch-enum-unchecked') delete (branches[1]!['properties'] as Record<string, Source>)['account_type']!['enum'];
  if (bug === 'unknown-member-accepted') for (const branch of branches) delete branch['unevaluatedProperties'];
  return document;
}

/** One page of a collection, with its links. */
function page<T>(items: T[], query: Record<string, unknown>, path: string) {
  const number = (query['page'] as number | undefined) ?? 1;
  const limit = (query['limit'] as number | undefined) ?? 10;
  const links: Record<string, string> = { self: `https://api.example.com${path}?page=${number}` };
  if (number * limit < items.length) links['next'] = `https://api.example.com${path}?page=${number + 1}`;
  if (number > 1) links['prev'] = `https://api.example.com${path}?page=${number - 1}`;
  return { data: items.slice((number - 1) * limit, number * limit), links };
}

/** A payment source as read back: writeOnly members left out, a card's number masked. */
function shown(source: Source): Source {
  const { cvc: _cvc, address_line1: _line1, address_line2: _line2, ...rest } = source;
  if (typeof rest['number'] === 'string' && 'cvc' in source) rest['number'] = `************${rest['number'].slice(-4)}`;
  return rest;
}

function trips(query: Record<string, unknown>) {
  const departure = query['date'] as string;
  return [0, 1].map((index) => ({
    id: randomUUID(),
    origin: query['origin'],
    destination: query['destination'],
    // Echoed as sent: the client's own offset (or leap second) is the client's to read.
    departure_time: departure,
    arrival_time: departure,
    operator: index ? 'SNCF' : 'Deutsche Bahn',
    price: 50 + index,
    bicycles_allowed: query['bicycles'] === true || index === 0,
    dogs_allowed: query['dogs'] === true || index === 1,
    links: { self: `https://api.example.com/stations/${String(query['origin'])}` },
  }));
}

export function trainsDefinition(spec: OpenApiDocument, bug?: TrainBug): BedDefinition {
  const bedBug = (BUGS as readonly string[]).includes(bug ?? '') ? (bug as Bug) : undefined;
  const bookings = new BedStore<Booking>(bedBug);
  const self = (booking: Booking) => ({ ...booking, links: { self: `https://api.example.com/bookings/${booking.id}` } });
  return {
    document: serverDocument(spec, bug),
    readOnlyInput: 'ignored',
    accepts: (_scheme, value) => value === TRAINS_TOKEN,
    error: (status, message) => ({
      status,
      contentType: 'application/problem+json',
      body: { type: `https://example.com/errors/${status}`, title: message, status },
    }),
    handlers: {
      'get-stations': ({ query }) => {
        const search = (query['search'] as string | undefined)?.toLowerCase();
        const found = STATIONS.filter(
          (station) =>
            (!search || `${station.name} ${station.address}`.toLowerCase().includes(search)) &&
            (query['country'] === undefined || station.country_code === query['country']),
        );
        return { status: 200, body: page(found, query, '/stations') };
      },
      'get-trips': ({ query }) => ({ status: 200, body: page(trips(query), query, '/trips') }),
      'get-bookings': ({ query }) => ({ status: 200, body: page(bookings.list().map(self), query, '/bookings') }),
      'create-booking': ({ body }) => {
        const { trip_id, passenger_name, has_bicycle, has_dog } = body as Booking;
        const booking: Booking = { id: randomUUID(), trip_id, passenger_name };
        if (has_bicycle !== undefined) booking.has_bicycle = has_bicycle;
        if (has_dog !== undefined) booking.has_dog = has_dog;
        return { status: 201, body: self(bookings.create(booking.id, booking)) };
      },
      'get-booking': ({ params }) => ({ status: 200, body: self(bookings.get(params['bookingId'] as string)) }),
      'delete-booking': ({ params }) => {
        bookings.delete(params['bookingId'] as string);
        return { status: 204 };
      },
      'create-booking-payment': ({ params, body }) => {
        const booking = bookings.get(params['bookingId'] as string);
        const { amount, currency, source } = body as { amount: number; currency: string; source: Source };
        if (!source || typeof source !== 'object') throw new BedError(400, 'a source is required');
        const payment = {
          id: randomUUID(),
          amount,
          currency,
          source: shown(source),
          status: bug === 'response-enum-outside-spec' ? 'processing' : 'succeeded',
          links: { booking: `https://api.example.com/bookings/${booking.id}` },
        };
        return { status: 200, body: payment };
      },
    },
  };
}

export async function startTrains(bug?: TrainBug) {
  const definition = trainsDefinition(await loadSpec(TRAINS_SPEC), bug);
  return startBedServer(definition, (BUGS as readonly string[]).includes(bug ?? '') ? (bug as Bug) : undefined);
}
