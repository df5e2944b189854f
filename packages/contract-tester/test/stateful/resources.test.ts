import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../src/http/http-client.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel, type ApiModel } from '../../src/spec/model.js';
import type { Exchange, LinkContext } from '../../src/stateful/links.js';
import { bodyIdentity, operationsOn, ResourceLedger, resourceTemplates, wholly } from '../../src/stateful/resources.js';
import { onResource } from '../../src/stateful/sequences.js';
import { emptyParts, NO_CREDENTIALS } from '../../src/generate/requests.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';
import { GALLERY_SPEC } from '../support/test-bed/gallery.js';

const board = readApiModel(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));
const gallery = readApiModel(parseSpec(readFileSync(GALLERY_SPEC, 'utf8')));
const context: LinkContext = { origin: 'http://127.0.0.1:1', credentialsFor: () => ({ kind: 'valid', credentials: [] }) };
const operation = (api: ApiModel, id: string) => api.operations.find((candidate) => candidate.id === id)!;

function exchange(
  api: ApiModel,
  id: string,
  target: string,
  status: number,
  body?: unknown,
  headers: HttpResponse['headers'] = {},
): Exchange {
  const of = operation(api, id);
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    operation: of,
    request: { method: of.method.toUpperCase(), target, headers: [], credentials: { kind: 'valid', credentials: [] } },
    response: {
      status,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      bytes: Buffer.from(text),
      text,
      body,
      elapsedMs: 1,
    },
  };
}

describe('what a create makes', () => {
  it('lives at a path one parameter below the create, or where its links lead; operations act on it there and below', () => {
    expect(resourceTemplates(gallery, operation(gallery, 'createExhibition'))).toEqual(['/exhibitions/{exhibitionId}']);
    expect(resourceTemplates(gallery, operation(gallery, 'buyTicket'))).toEqual(['/tickets/{ticketId}']);
    expect(operationsOn(gallery, '/tickets/{ticketId}').map(({ id }) => id)).toEqual(['getTicketQr']);
    expect(resourceTemplates(board, operation(board, 'createGame'))).toEqual(['/games/{gameId}', '/games/{gameId}/squares/{row}/{column}']);
  });

  it('is learned from a Location header, the links, or an id in the body named as the path parameter', () => {
    const ledger = new ResourceLedger(board, context);
    const made = ledger.observe(
      exchange(board, 'createGame', '/v1/games', 201, { gameId: 7, board: [], winner: '.' }, { location: '/v1/games/7' }),
    );
    expect(made.map(({ template, parameters, path }) => `${template} ${JSON.stringify(parameters)} ${path}`)).toEqual([
      '/games/{gameId} {"gameId":"7"} /v1/games/7',
    ]);
    // A path below it takes its parameters; the square's row and column are the case's own.
    expect(ledger.candidates(operation(board, 'getSquare'))).toEqual(made);
    expect(wholly(operation(board, 'getSquare'), made[0]!)).toBe(false);
    expect(wholly(operation(board, 'getGame'), made[0]!)).toBe(true);
    expect(ledger.candidates(operation(board, 'getGame'))).toEqual(made);
    const tickets = new ResourceLedger(gallery, context);
    const ticketId = '6b1a4d7e-0f59-4c3e-9a0f-0c2f5a3e8b11';
    const [ticket] = tickets.observe(exchange(gallery, 'buyTicket', '/api/tickets', 201, { ticketId, code: 'T-1' }));
    expect(ticket).toMatchObject({ template: '/tickets/{ticketId}', path: `/api/tickets/${ticketId}`, createdBy: 'buyTicket' });
    expect(tickets.candidates(operation(gallery, 'getTicketQr'))).toEqual([ticket]);
    expect(tickets.addressed(`/api/tickets/${ticketId}/qr?x=1`)).toBe(ticket);
  });

  it('is followed through updates, deletes and writes of unknown effect', () => {
    const ledger = new ResourceLedger(gallery, context);
    const id = '0d6f6f2c-6d0b-4f7e-8f54-2d8f5b0c0e1a';
    const path = `/api/exhibitions/${id}`;
    const [made] = ledger.observe(exchange(gallery, 'createExhibition', '/api/exhibitions', 201, { exhibitionId: id, title: 'A' }));
    expect(made!.last).toEqual({ body: { exhibitionId: id, title: 'A' }, schemaPointer: '/components/schemas/Exhibition' });
    ledger.observe(exchange(gallery, 'updateExhibition', path, 200, { exhibitionId: id, title: 'B' }));
    expect(made!.last).toEqual({ body: { exhibitionId: id, title: 'B' }, schemaPointer: '/components/schemas/Exhibition' });
    ledger.observe(exchange(gallery, 'updateExhibition', path, 404, { title: 'no' }));
    expect(made!.last).toMatchObject({ body: { title: 'B' } });
    ledger.observe({ operation: operation(gallery, 'updateExhibition'), request: exchange(gallery, 'updateExhibition', path, 0).request });
    expect(made!.last).toBe('unknown');
    // An idempotent retry of the create answers the first answer again: what the resource is now stays.
    ledger.observe(exchange(gallery, 'createExhibition', '/api/exhibitions', 201, { exhibitionId: id, title: 'A' }));
    expect(made!.last).toBe('unknown');
    ledger.observe(exchange(gallery, 'deleteExhibition', path, 204));
    expect(made!.state).toBe('deleted');
    ledger.observe(exchange(gallery, 'deleteExhibition', path, 500));
    expect(made!.state).toBe('uncertain');
    expect(ledger.identityOf(made!, '/title')).toBe('A');
  });

  it('is made again by a PUT to its path', () => {
    const ledger = new ResourceLedger(board, context);
    const [made] = ledger.observe(exchange(board, 'markSquare', '/v1/games/3/squares/1/1', 200, { gameId: 3 }));
    expect(made).toMatchObject({ template: '/games/{gameId}/squares/{row}/{column}', state: 'present', createdBy: 'markSquare' });
  });

  it('is named in the body of an update sent to the collection (PUT /pets with the id), and followed through it', () => {
    const pet = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
    const api = readApiModel(
      parseSpec(
        JSON.stringify({
          openapi: '3.1.0',
          info: { title: 'T', version: '1' },
          paths: {
            '/pets': {
              post: { operationId: 'addPet', requestBody: json(pet), responses: { '200': { description: 'ok', ...json(pet) } } },
              put: { operationId: 'updatePet', requestBody: json(pet), responses: { '200': { description: 'ok', ...json(pet) } } },
            },
            '/pets/{petId}': {
              get: {
                operationId: 'getPet',
                parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
                responses: { '200': { description: 'ok', ...json(pet) } },
              },
            },
          },
        }),
      ),
    );
    expect(bodyIdentity(operation(api, 'updatePet'), '/pets/{petId}')).toBe('id');
    expect(bodyIdentity(operation(api, 'addPet'), '/pets/{petId}')).toBeUndefined();
    expect(operationsOn(api, '/pets/{petId}').map(({ id }) => id)).toEqual(['updatePet', 'getPet']);
    const ledger = new ResourceLedger(api, context);
    const [made] = ledger.observe(exchange(api, 'addPet', '/pets', 200, { id: 4, name: 'a' }));
    expect(ledger.candidates(operation(api, 'updatePet'))).toEqual([made]);
    const parts = {
      ...emptyParts(operation(api, 'updatePet'), '', NO_CREDENTIALS),
      body: { mediaType: 'application/json', value: { id: 99, name: 'b' } },
    };
    expect(onResource(parts, operation(api, 'updatePet'), made!).body).toEqual({
      mediaType: 'application/json',
      value: { id: 4, name: 'b' },
    });
    const update = exchange(api, 'updatePet', '/pets', 200, { id: 4, name: 'b' });
    ledger.observe({ ...update, request: { ...update.request, body: Buffer.from('{"id":4,"name":"b"}') } });
    expect(made!.last).toMatchObject({ body: { id: 4, name: 'b' } });
  });
});
