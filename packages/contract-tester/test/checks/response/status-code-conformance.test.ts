import { describe, expect, it } from 'vitest';
import { boardChecker, observed, PET, petStoreChecker } from '../../support/observed-response.js';

describe('status_code_conformance', () => {
  const checker = petStoreChecker();
  const board = boardChecker();

  it('refuses a status the operation does not document', () => {
    expect(checker.violations(observed({ method: 'POST', status: 200, body: PET }))[0]).toMatch(
      /^POST \/v1\/pets → 200: status 200 is not documented for createPet \(documented: 201, 400, /,
    );
  });

  it('excuses 401 and 403 without valid credentials, and a client error where the operation documents none', () => {
    const noAuth = observed({ url: '/v1/games/1', status: 401, body: undefined, text: 'no', headers: { 'content-type': 'text/plain' } });
    expect(board.violations(noAuth, 'unauthenticated')).toEqual([]);
    expect(board.violations(noAuth, 'valid')[0]).toMatch(/status 401 is not documented for getGame/);
    const created = observed({ method: 'POST', url: '/v1/games', status: 400, body: undefined, text: 'bad' });
    expect(board.violations(created, 'invalid')).toEqual([]);
    expect(board.violations(observed({ url: '/v1/games/1', status: 400, body: undefined, text: 'bad' }), 'invalid')[0]).toMatch(
      /status 400 is not documented for getGame/,
    );
  });
});
