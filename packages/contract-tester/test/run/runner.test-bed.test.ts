import { describe, expect, it } from 'vitest';
import type { CheckName } from '../../src/registry/checks.js';
import { failureTitle } from '../../src/report/report.js';
import { runContractTests, type RunResult } from '../../src/run/runner.js';
import type { CredentialOptions } from '../../src/http/credentials.js';
import { loadSpec } from '../../src/spec/load.js';
import { BUGS, type Bug } from '../support/test-bed/bed-server.js';
import { BOARD_CREDENTIALS, BOARD_SPEC, startBoard } from '../support/test-bed/board.js';
import { GALLERY_SPEC, GALLERY_USER, startGallery } from '../support/test-bed/gallery.js';
import { SHELTER_CREDENTIALS, SHELTER_SPEC, startShelter } from '../support/test-bed/shelter.js';

/**
 * The evidence: small correct servers of three APIs in the shapes of public OpenAPI documents (the
 * museum, tictactoe, the petstores: see test/support/test-bed/), tested by default, with the spec
 * alone. A correct server passes with nothing reported; each planted bug fails the run, named for
 * what it is, and nothing else is reported beside it.
 */

const beds: Array<{
  name: string;
  spec: string;
  start: (bug?: Bug) => Promise<{ baseUrl: string; close: () => Promise<void> }>;
  credentials: CredentialOptions;
}> = [
  {
    name: 'gallery (museum: 3.1, HTTP basic, problem+json, image/png)',
    spec: GALLERY_SPEC,
    start: startGallery,
    credentials: { basic: GALLERY_USER },
  },
  {
    name: 'board (tictactoe: 3.1, three alternative schemes, text/html errors, links)',
    spec: BOARD_SPEC,
    start: startBoard,
    credentials: { security: { apiKey: BOARD_CREDENTIALS.apiKey } },
  },
  {
    name: 'shelter (petstores: 3.0, OAuth2, forms, octet-stream, $refs to a file)',
    spec: SHELTER_SPEC,
    start: startShelter,
    credentials: { security: { oauth: SHELTER_CREDENTIALS.oauth } },
  },
];

/** The check that names each bug, and what else its bug makes a server say (a 500's own body, an invalid value echoed). */
const NAMED_BY: Record<Bug, { check: CheckName; besides: CheckName[] }> = {
  'missing-required-field': { check: 'response_schema_conformance', besides: [] },
  'wrong-type': { check: 'response_schema_conformance', besides: [] },
  'server-error': { check: 'not_a_server_error', besides: ['status_code_conformance', 'content_type_conformance'] },
  'accepts-invalid-enum': { check: 'negative_data_rejection', besides: ['response_schema_conformance'] },
  'ignores-auth': { check: 'ignored_auth', besides: [] },
  'wrong-content-type': { check: 'content_type_conformance', besides: [] },
  'loses-creates': { check: 'ensure_resource_availability', besides: [] },
  'serves-deleted': { check: 'use_after_free', besides: [] },
};

async function test(bed: (typeof beds)[number], bug?: Bug): Promise<RunResult> {
  const server = await bed.start(bug);
  try {
    return await runContractTests({
      baseUrl: server.baseUrl,
      document: await loadSpec(bed.spec),
      requests: 400,
      seed: 2026,
      credentials: bed.credentials,
    });
  } finally {
    await server.close();
  }
}

describe('the test bed: credentials for every alternative scheme at once', { timeout: 120_000 }, () => {
  it('invents no ignored_auth: a request without valid credentials carries none of any scheme, -H included', async () => {
    const board = beds[1]!;
    const all = {
      headers: [{ name: 'X-API-Key', value: BOARD_CREDENTIALS.apiKey }],
      security: { bearerAuth: BOARD_CREDENTIALS.bearerAuth, oauth: BOARD_CREDENTIALS.oauth },
    };
    const run = await test({ ...board, credentials: all });
    expect(run.failures.map(failureTitle)).toEqual([]);
  });
});

describe.each(beds)('the test bed: $name', { timeout: 120_000 }, (bed) => {
  it('a correct server: nothing reported, every operation exercised', async () => {
    const run = await test(bed);
    expect(run.failures.map((failure) => `${failureTitle(failure)}: ${failure.message}`)).toEqual([]);
    expect(run.notExercised).toEqual([]);
    expect(run.skipped).toEqual([]);
  });

  it.each(BUGS)('planted bug %s: found and named', async (bug) => {
    const run = await test(bed, bug);
    const checks = new Set(run.failures.map(({ check }) => check));
    expect([...checks], run.failures.map(failureTitle).join('\n')).toContain(NAMED_BY[bug].check);
    expect([...checks].filter((check) => check !== NAMED_BY[bug].check && !NAMED_BY[bug].besides.includes(check))).toEqual([]);
  });
});
