import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { failureTitle } from '../../src/report/report.js';
import { planRun, runContractTests } from '../../src/run/runner.js';
import { parseSpec } from '../../src/spec/load.js';
import { cardsSpec } from '../support/semantics/cards.js';
import { startBedServer } from '../support/test-bed/bed-server.js';

/**
 * A request body whose schema requires a readOnly property (a card's id) once made the valid-body
 * generator spin forever at full CPU: it left the property out, then filtered against a schema that
 * requires it. Whole runs now end, in both OpenAPI versions: planned (--dry-run), run, and run under
 * --max-time; the card's writeOnly cvc, required too, goes in every request and is asked of no answer.
 */

async function startCards(version: '3.0.3' | '3.1.0') {
  const document = parseSpec(JSON.stringify(cardsSpec(version)));
  return startBedServer({
    document,
    readOnlyInput: 'ignored',
    accepts: () => true,
    error: (status, message) => ({ status, body: { message } }),
    handlers: {
      createCard: ({ body }) => {
        const { number } = body as { number: string };
        return { status: 201, body: { id: randomUUID(), number } };
      },
    },
  });
}

for (const version of ['3.0.3', '3.1.0'] as const) {
  describe(`a body that requires a readOnly property (${version})`, () => {
    const document = () => parseSpec(JSON.stringify(cardsSpec(version)));

    // Ending is the point (the generation itself is held to a second in scenarios.test.ts): a
    // hang would outlast the test's timeout.
    it('--dry-run: it ends, planned, every scenario with its cases', () => {
      const plan = planRun({ baseUrl: 'http://127.0.0.1:1/api', document: document(), requests: 100, seed: 1 });
      expect(plan.skipped).toEqual([]);
      expect(plan.tested).toEqual(['createCard']);
      expect(plan.scenarios.find(({ name }) => name === 'createCard: valid requests')?.cases).toBeGreaterThan(0);
    });

    for (const maxTimeSeconds of [undefined, 3]) {
      it(`a run${maxTimeSeconds ? ` with --max-time ${maxTimeSeconds}` : ''}: it ends, nothing reported, the create exercised`, async () => {
        const server = await startCards(version);
        try {
          const run = await runContractTests({
            baseUrl: server.baseUrl,
            document: document(),
            requests: 40,
            seed: 1,
            ...(maxTimeSeconds ? { maxTimeSeconds } : {}),
          });
          expect(run.failures.map((failure) => `${failureTitle(failure)}: ${failure.message}`)).toEqual([]);
          expect(run.skipped).toEqual([]);
          expect(run.notExercised).toEqual([]);
          // Ended by itself, every scenario run, not stopped by the budget.
          expect(run.scenarios.filter(({ status }) => status === 'skipped')).toEqual([]);
        } finally {
          await server.close();
        }
      });
    }
  });
}
