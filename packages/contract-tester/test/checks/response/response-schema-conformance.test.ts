import { describe, expect, it } from 'vitest';
import { ContractChecker } from '../../../src/checks/response-contract.js';
import { parseSpec } from '../../../src/spec/load.js';
import { cardsSpec } from '../../support/semantics/cards.js';
import { boardChecker, HTML_TYPE, observed, petStoreChecker } from '../../support/observed-response.js';

describe('response_schema_conformance', () => {
  it('refuses a body against its schema', () => {
    const [body] = petStoreChecker().violations(observed({ body: [{ id: 1, name: 'Rex' }] }));
    expect(body).toMatch(
      /body breaks the contract \(\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema\): data\/0 must have required property 'categoryId'/,
    );
  });

  it('checks a text body against a string schema', () => {
    const long = `<p>${'x'.repeat(300)}</p>`;
    expect(
      boardChecker()
        .findings(observed({ url: '/v1/games/1', status: 404, body: undefined, text: long, headers: HTML_TYPE }))
        .map(({ check }) => check),
    ).toEqual(['response_schema_conformance']);
  });

  for (const version of ['3.0.3', '3.1.0'] as const) {
    it(`does not require a writeOnly property of a response, but still the others (${version})`, () => {
      const cards = new ContractChecker(parseSpec(JSON.stringify(cardsSpec(version))));
      const made = (body: unknown) =>
        observed({ method: 'POST', url: '/api/cards', status: 201, body, headers: { 'content-type': 'application/json' } });
      const id = '123e4567-e89b-12d3-a456-426614174000';
      expect(cards.violations(made({ id, number: '4111111111111111' }))).toEqual([]);
      expect(cards.violations(made({ number: '4111111111111111' }))[0]).toMatch(/must have required property 'id'/);
    });
  }
});
