import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSpec } from '../../../src/spec/load.js';
import { BedStore, startBedServer, withResponseBug, type Bug, type BedDefinition } from './bed-server.js';

/** The gallery: in the shape of Redocly's museum API (see gallery.yaml). */
export const GALLERY_SPEC = fileURLToPath(new URL('./gallery.yaml', import.meta.url));
export const GALLERY_USER = 'curator:s3cret';

const PAGE_SIZE = 20;

type Exhibition = { exhibitionId: string; title: string; room: string; price: number; dates: string[] };
type Ticket = { ticketId: string; code: string; ticketType: string; date: string; email: string; exhibitionId?: string };

const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export function galleryDefinition(bug?: Bug): BedDefinition {
  const exhibitions = new BedStore<Exhibition>(bug);
  const tickets = new BedStore<Ticket>(bug);
  const show = (exhibition: Exhibition) => withResponseBug(exhibition, bug, 'title', 'price');
  return {
    document: parseSpec(readFileSync(GALLERY_SPEC, 'utf8')),
    accepts: (_scheme, value) => Buffer.from(value, 'base64').toString('utf8') === GALLERY_USER,
    error: (status, message) => ({ status, contentType: 'application/problem+json', body: { title: message, status } }),
    handlers: {
      listOpeningHours: ({ query }) => {
        const days = (query['days'] as number | undefined) ?? 7;
        // The planted 500: the longest range the spec allows.
        if (bug === 'server-error' && days === 31) throw new Error('off by one');
        const from = new Date(`${(query['from'] as string | undefined) ?? '2030-01-01'}T00:00:00Z`);
        const body = Array.from({ length: days }, (_, index) => ({
          date: new Date(from.getTime() + index * 86_400_000).toISOString().slice(0, 10),
          opens: '09:00',
          closes: '18:00',
        }));
        return { status: 200, body };
      },
      listExhibitions: ({ query }) => {
        // Pages as the museum's list does: a page's size stays the same however many a run creates.
        const first = (((query['page'] as number | undefined) ?? 1) - 1) * PAGE_SIZE;
        return {
          status: 200,
          body: exhibitions
            .list()
            .slice(first, first + PAGE_SIZE)
            .map(show),
        };
      },
      createExhibition: ({ body }) => {
        const exhibition = { ...(body as Omit<Exhibition, 'exhibitionId'>), exhibitionId: randomUUID() };
        return { status: 201, body: show(exhibitions.create(exhibition.exhibitionId, exhibition)) };
      },
      getExhibition: ({ params }) => ({ status: 200, body: show(exhibitions.get(params['exhibitionId'] as string)) }),
      updateExhibition: ({ params, body }) => {
        const id = params['exhibitionId'] as string;
        return { status: 200, body: show(exhibitions.put(id, { ...exhibitions.get(id), ...(body as Partial<Exhibition>) })) };
      },
      deleteExhibition: ({ params }) => {
        exhibitions.delete(params['exhibitionId'] as string);
        return { status: 204 };
      },
      buyTicket: ({ body }) => {
        const order = body as Omit<Ticket, 'ticketId' | 'code'>;
        if (order.exhibitionId !== undefined) exhibitions.get(order.exhibitionId);
        const ticket = { ...order, ticketId: randomUUID(), code: `T-${randomUUID().slice(0, 8)}` };
        return { status: 201, body: tickets.create(ticket.ticketId, ticket) };
      },
      getTicketQr: ({ params }) => {
        tickets.get(params['ticketId'] as string);
        return { status: 200, contentType: 'image/png', body: ONE_PIXEL_PNG };
      },
    },
  };
}

export const startGallery = (bug?: Bug) => startBedServer(galleryDefinition(bug), bug);
