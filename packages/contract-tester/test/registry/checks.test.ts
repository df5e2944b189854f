import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS, DEFAULT_CHECKS, describeCheck, isCheckName, PROFILE_CHECKS, TIMING_CHECKS } from '../../src/registry/checks.js';

describe('the checks, by name', () => {
  it("are Schemathesis' by default, the profile's stricter ones apart, max_response_time on demand", () => {
    expect(DEFAULT_CHECKS).toEqual([
      'not_a_server_error',
      'status_code_conformance',
      'content_type_conformance',
      'response_headers_conformance',
      'response_schema_conformance',
      'negative_data_rejection',
      'positive_data_acceptance',
      'missing_required_header',
      'unsupported_method',
      'allow_header_conformance',
      'use_after_free',
      'ensure_resource_availability',
      'ignored_auth',
    ]);
    expect(ALL_CHECKS).toHaveLength(DEFAULT_CHECKS.length + PROFILE_CHECKS.length + 1);
    expect(new Set(ALL_CHECKS).size).toBe(ALL_CHECKS.length);
    expect(isCheckName('max_response_time')).toBe(true);
    expect(isCheckName('auth_first')).toBe(true);
    expect(isCheckName('status_code')).toBe(false);
  });

  it('describes each check, and the README documents each in the table of its kind', () => {
    for (const name of ALL_CHECKS) expect(describeCheck(name).length, name).toBeGreaterThan(10);
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const tableOf = (heading: string) => {
      const section = readme.slice(readme.indexOf(heading));
      const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| ---')));
      return [...table.matchAll(/^\| `(\w+)`/gm)].map(([, name]) => name);
    };
    expect(tableOf('### By default: the spec and HTTP')).toEqual([...DEFAULT_CHECKS, ...TIMING_CHECKS]);
    expect(tableOf('### Profile checks')).toEqual([...PROFILE_CHECKS]);
  });

  it('is the only module that spells a check name: the others name a check through it', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const spelled = new RegExp(`'(${ALL_CHECKS.join('|')})'`);
    const modules = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (path) => path.endsWith('.ts') && path !== join('registry', 'checks.ts'),
    );
    const offenders = modules.filter((path) => spelled.test(readFileSync(join(src, path), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
