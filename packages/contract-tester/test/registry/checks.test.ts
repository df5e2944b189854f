import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BODY_RULES } from '../../src/generate/negative-requests.js';
import { MISSING_HEADER, RULES } from '../../src/generate/invalid-values.js';
import {
  ALL_CHECKS,
  answerCheck,
  DEFAULT_CHECKS,
  describeCheck,
  FORM_CHECKS,
  isCheckName,
  PROFILE_CHECKS,
  rejectionCheck,
  settingsReader,
  TIMING_CHECKS,
  VALID_ANSWER_CHECKS,
  type CheckName,
} from '../../src/registry/checks.js';

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

  it('has each check defined in a module of its own, named after it, its function too, that alone spells its name', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const modules = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'));
    const texts = new Map(modules.map((path) => [path, readFileSync(join(src, path), 'utf8')]));
    for (const name of ALL_CHECKS) {
      const spelled = new RegExp(`['"\`]${name}['"\`]`);
      const spelling = modules.filter((path) => spelled.test(texts.get(path)!));
      expect(spelling, name).toEqual([expect.stringMatching(new RegExp(`(^|/)${name.replace(/_/g, '-')}\\.ts$`))]);
      const camel = name.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());
      expect(texts.get(spelling[0]!), name).toMatch(new RegExp(`export const ${camel} = defineCheck\\(\\{\\s*name: '${name}'`));
      expect(texts.get(spelling[0]!), name).toMatch(new RegExp(`(check|answer): (async )?function ${camel}\\(`));
    }
  });

  it('tells the check under which accepting a broken rule fails: the one that claims the rule, or negative_data_rejection', () => {
    expect([...RULES, ...BODY_RULES, MISSING_HEADER].map((rule) => `${rule}: ${rejectionCheck(rule)}`)).toEqual([
      'wrong type: negative_data_rejection',
      'out of bounds: negative_data_rejection',
      'missing required: negative_data_rejection',
      'extra property: negative_data_rejection',
      'bad enum value: negative_data_rejection',
      'bad format: negative_data_rejection',
      'bad pattern: negative_data_rejection',
      'non-canonical number: canonical_numbers',
      'badly encoded text: text_encoding',
      'unsupported media type: strict_media_types',
      'body too large: negative_data_rejection',
      'malformed body: negative_data_rejection',
      'missing required header: missing_required_header',
    ]);
    expect(rejectionCheck()).toBe('negative_data_rejection');
  });

  it('lets the profile checks that take settings read them', () => {
    expect(PROFILE_CHECKS.filter((name) => settingsReader(name) !== undefined)).toEqual([
      'required_response_headers',
      'forbidden_response_headers',
      'error_schema_conformance',
      'auth_first',
      'exact_paths',
      'listing_audit',
      'state_refusals',
    ]);
    expect(DEFAULT_CHECKS.filter((name) => settingsReader(name) !== undefined)).toEqual([]);
    expect(settingsReader('listing_audit')!({ maxPages: 3 }, 'checks.listing_audit')).toEqual({ auditPages: 3 });
    expect(settingsReader('listing_audit')!(true, 'checks.listing_audit')).toEqual({});
  });

  it('finds the checks of a case by name, and which judge the form of an answer or read a valid one', () => {
    expect(answerCheck('canonical_numbers')?.name).toBe('canonical_numbers');
    expect(answerCheck('use_after_free')).toBeUndefined();
    expect([...FORM_CHECKS]).toEqual([
      'content_type_conformance',
      'response_headers_conformance',
      'response_schema_conformance',
      'max_response_time',
      'required_response_headers',
      'forbidden_response_headers',
      'error_schema_conformance',
      'no_undocumented_body',
    ]);
    expect(VALID_ANSWER_CHECKS).toEqual(
      ['not_a_server_error', 'status_code_conformance', ...FORM_CHECKS, 'positive_data_acceptance', 'write_echo'].sort(
        (a, b) => ALL_CHECKS.indexOf(a as CheckName) - ALL_CHECKS.indexOf(b as CheckName),
      ),
    );
  });
});
