import { describe, expect, it } from 'vitest';
import { junitXml, xmlText } from '../src/junit.js';
import { run } from './support/contract-test-results.js';

describe('the JUnit report', () => {
  const xml = junitXml(run, new Date('2026-11-21T10:00:00Z'));

  it('has one testcase per check: passed, failed with the report, skipped with the reason', () => {
    expect(xml).toContain('<testsuites name="contract-test" tests="3" failures="1" errors="0" skipped="1" time="2.500">');
    expect(xml).toContain('timestamp="2026-11-21T10:00:00"');
    expect(xml).toContain('<property name="seed" value="42"/>');
    expect(xml).toContain('<testcase classname="getPet" name="getPet: valid requests" time="1.500"/>');
    expect(xml).toContain(
      '<failure message="a request that breaks the contract must be refused with a 4xx, but got 200 {}" type="ContractViolation">✗ getPet: non-canonical number\n',
    );
    expect(xml).toContain('-H &quot;Authorization: Bearer $PETSTORE_API_KEY&quot;');
    expect(xml).toContain('<skipped message="needs an API key"/>');
  });

  it('escapes markup and leaves out what XML cannot carry', () => {
    expect(xmlText('<a href="x">&\u0000\ud800\u{1f600}')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;\ufffd\ufffd\u{1f600}');
  });
});
