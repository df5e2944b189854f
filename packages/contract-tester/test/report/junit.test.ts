import { describe, expect, it } from 'vitest';
import { junitXml, xmlText } from '../../src/report/junit.js';
import { context, run } from '../support/contract-test-results.js';

describe('the JUnit report', () => {
  const xml = junitXml(run, context, new Date('2026-11-21T10:00:00Z'));

  it('has one testcase per scenario: passed, failed with the report of each failure, skipped with the reason', () => {
    expect(xml).toContain('<testsuites name="contract-test" tests="5" failures="1" errors="0" skipped="3" time="2.500">');
    expect(xml).toContain('timestamp="2026-11-21T10:00:00"');
    expect(xml).toContain('<property name="seed" value="42"/>');
    expect(xml).toContain('<property name="checks" value="not_a_server_error,canonical_numbers"/>');
    expect(xml).toContain('<testcase classname="getPet" name="getPet: valid requests" time="1.500"/>');
    expect(xml).toContain(
      '<failure message="canonical_numbers · getPet · 200" type="ContractViolation">✗ canonical_numbers · getPet · 200\n',
    );
    expect(xml).toContain('-H &quot;Authorization: Bearer $CONTRACT_TEST_API_KEY&quot;');
    expect(xml).toContain('<skipped message="not run: --max-time reached"/>');
  });

  it('has a testcase for each operation not tested, and for each not exercised (a failure, when that fails the run)', () => {
    expect(xml).toContain(
      '<testcase classname="uploadPhoto" name="uploadPhoto: not tested" time="0.000">\n      <skipped message="it needs oauth (oauth2)"/>',
    );
    expect(xml).toContain(
      '<testcase classname="listStoreOrders" name="listStoreOrders: exercised" time="0.000">\n      <skipped message="no valid request got a success (2xx) from listStoreOrders"/>',
    );
    const strict = junitXml({ ...run, failOnNotExercised: true }, context);
    expect(strict).toContain('tests="5" failures="2"');
    expect(strict).toContain('<failure message="no valid request got a success (2xx) from listStoreOrders" type="NotExercised"/>');
  });

  it('escapes markup and leaves out what XML cannot carry', () => {
    expect(xmlText('<a href="x">&\u0000\ud800\u{1f600}')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;\ufffd\ufffd\u{1f600}');
  });
});
