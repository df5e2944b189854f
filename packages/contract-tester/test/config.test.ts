import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, EMPTY_PROFILE, readConfigFile, readProfile } from '../src/config.js';
import { PET_STORE_CONFIG, PET_STORE_SPEC } from './support/pet-store.js';

describe('a config file (a profile)', () => {
  it("turns on the stricter checks it names, with what they need: the pet store's house rules", () => {
    const profile = readConfigFile(PET_STORE_CONFIG);
    expect(profile.name).toBe("the pet store's house rules");
    expect(profile.spec).toBe(PET_STORE_SPEC);
    expect(profile.failOnNotExercised).toBe(true);
    expect(profile.requiredHeaders).toEqual({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    expect(profile.forbiddenHeaders).toEqual(['x-powered-by']);
    expect(profile.errorSchema).toEqual({
      schema: '/components/schemas/Error',
      mediaType: 'application/json',
      statusProperty: 'status',
      codeProperty: 'code',
      codes: '/components/schemas/ErrorCode',
    });
    expect(profile.forgedTokenPrefix).toBe('psk_');
    expect(profile.publicPaths.some((pattern) => pattern.test('/healthz'))).toBe(true);
    expect(profile.anyRequestStatuses).toEqual([503, 505]);
    expect(profile.checks.has('auth_first') && profile.checks.has('listing_audit') && profile.checks.has('valid_writes_accepted')).toBe(
      true,
    );
  });

  it('reads the client errors state_refusals allows a valid request, and wants them', () => {
    expect(readProfile({ checks: { state_refusals: { statuses: [404, 409] } } }).stateRefusals).toEqual([404, 409]);
    expect(() => readProfile({ checks: { state_refusals: true } })).toThrow('checks.state_refusals must be an object');
    expect(() => readProfile({ checks: { state_refusals: { statuses: ['404'] } } })).toThrow(
      'checks.state_refusals.statuses must be a list of statuses',
    );
  });

  it('is empty by default: no stricter check', () => {
    expect(EMPTY_PROFILE.checks.size).toBe(0);
    expect(readProfile({})).toMatchObject({ checks: new Set(), failOnNotExercised: false, auditPages: 1000 });
    expect(readProfile({ checks: { write_echo: false, head_as_get: true } }).checks).toEqual(new Set(['head_as_get']));
  });

  it('says exactly what is wrong with it', () => {
    const wrong = (json: unknown) => () => readProfile(json);
    expect(wrong({ checks: { status_code_conformance: true } })).toThrow(
      'checks.status_code_conformance: status_code_conformance is a default check (select checks with --checks and --exclude-checks)',
    );
    expect(wrong({ checks: { nonsense: true } })).toThrow(
      /checks.nonsense: no such check; the profile checks are required_response_headers, /,
    );
    expect(wrong({ checks: { required_response_headers: true } })).toThrow('checks.required_response_headers must be an object');
    expect(wrong({ checks: { error_schema_conformance: { schema: 'Error' } } })).toThrow(
      'must be a JSON pointer such as #/components/schemas/Error',
    );
    expect(wrong({ checks: { head_as_get: 'yes' } })).toThrow('checks.head_as_get takes true or false');
    expect(wrong({ checks: { listing_audit: { maxPages: 0 } } })).toThrow('checks.listing_audit.maxPages must be a positive integer');
    expect(wrong({ spec: 'x', extra: 1 })).toThrow('the config: unknown extra');
    const file = join(mkdtempSync(join(tmpdir(), 'config-')), 'bad.json');
    writeFileSync(file, '{');
    expect(() => readConfigFile(file)).toThrow(ConfigError);
  });
});
