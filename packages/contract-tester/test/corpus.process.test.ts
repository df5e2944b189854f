import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCheckName } from '../src/registry/checks.js';
import { corpusDocuments, planDocument, pool, spreadSample, type CorpusDocument as Document } from '../scripts/corpus.mjs';

// The whole corpus is `npm run corpus -w openapi-contract-tester` (docs/contract-testing.md); here a
// sample chosen the same way on every run: spread over the documents sorted by name, our 3.1 ones,
// and the next two largest of the directory (hundreds of operations: they spend the whole budget).
const all = corpusDocuments();
const directory = all.filter(({ id }) => !id.startsWith('corpus/'));
// Microsoft Graph's two (20 and 47 MB of JSON) are left to the whole-corpus script: parsing them
// alone can outlast a small budget on a loaded machine (JSON.parse cannot be interrupted).
const largest = [...directory].sort((a, b) => statSync(b.path).size - statSync(a.path).size).slice(2, 4);
const sample = [...spreadSample(directory, 10), ...all.filter(({ id }) => id.startsWith('corpus/')), ...largest];
const MAX_TIME = 8;

describe('the corpus of public OpenAPI documents (a sample)', () => {
  it('holds at least 200 documents, 3.0 and 3.1', () => {
    expect(directory.length).toBeGreaterThanOrEqual(200);
    expect(all.filter(({ id }) => id.startsWith('corpus/')).length).toBeGreaterThanOrEqual(3);
  });

  it('every document is planned within --max-time or refused with a reason: none crashes or hangs', async () => {
    const outcomes = await pool(sample, 2, (document: Document) => planDocument(document, MAX_TIME));
    for (const outcome of outcomes) {
      expect.soft(['planned', 'refused'], `${outcome.id}: ${outcome.reason ?? ''}`).toContain(outcome.result);
      if (outcome.result === 'refused') expect.soft(outcome.reason, outcome.id).not.toMatch(/Error: |is not a function|Cannot read/);
      // Every operation left out is left out with its reason.
      if (outcome.result === 'planned') expect.soft(outcome.unexplained, outcome.id).toEqual([]);
    }
    expect(outcomes.filter(({ result }) => result === 'planned').length).toBeGreaterThanOrEqual(sample.length - 3);
    // The tictactoe example's `security` is an object: refused, naming it.
    expect(outcomes.find(({ id }) => id === 'corpus/oai-tictactoe.yaml')).toMatchObject({
      result: 'refused',
      reason: expect.stringContaining('security is {') as unknown,
    });
    // The largest stop at the budget.
    for (const { id } of largest) {
      const outcome = outcomes.find((candidate) => candidate.id === id)!;
      // Planned as far as the budget went, or (on a loaded machine) refused because reading it spent the budget.
      if (outcome.result === 'refused') expect(outcome.reason, id).toContain('--max-time');
      else expect(outcome.result, id).toBe('planned');
    }
  }, 240_000);

  it('explains each expected failure of a mock with whose it is and the evidence, for documents of the corpus', () => {
    const expectations = JSON.parse(readFileSync(new URL('corpus/expectations.json', import.meta.url), 'utf8')) as Record<
      string,
      Array<Record<string, unknown>>
    >;
    const ids = new Set(all.map(({ id }) => id));
    for (const [id, entries] of Object.entries(expectations)) {
      if (id !== '*') expect(ids, id).toContain(id);
      for (const entry of entries) {
        expect(isCheckName(String(entry['check'])), `${id}: ${String(entry['check'])}`).toBe(true);
        expect(['mock', 'spec'], id).toContain(entry['cause']);
        expect(String(entry['reason']).length, id).toBeGreaterThan(40);
        expect(String(entry['evidence']), id).toMatch(/→ \d{3}/);
        // A signature (the schema errors) or an answer (the body) narrows the entry: regular expressions.
        for (const key of ['signature', 'answer'])
          if (entry[key] !== undefined) expect(() => new RegExp(String(entry[key])), id).not.toThrow();
      }
    }
  });
});
