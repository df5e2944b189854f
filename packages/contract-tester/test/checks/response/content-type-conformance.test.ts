import { describe, expect, it } from 'vitest';
import { boardChecker, observed, petStoreChecker } from '../../support/observed-response.js';

describe('content_type_conformance', () => {
  const board = boardChecker();

  it('refuses another content type', () => {
    expect(petStoreChecker().violations(observed({ body: [], headers: { 'content-type': 'text/plain' } }))).toEqual([
      'GET /v1/pets → 200: Content-Type text/plain is not one documented (application/json)',
    ]);
  });

  it('refuses a Content-Type that is no media type, and a body without one', () => {
    expect(
      board.violations(observed({ url: '/v1/games/1', body: { gameId: 1 }, headers: { 'content-type': 'application json' } })),
    ).toEqual(['GET /v1/games/1 → 200: Content-Type application json is not a media type']);
    expect(board.violations(observed({ url: '/v1/games/1', body: { gameId: 1 }, headers: { 'content-type': undefined } }))).toEqual([
      'GET /v1/games/1 → 200: no Content-Type, but one of application/json is documented',
    ]);
  });
});
