import type { RunResult } from '../run/runner.js';
import { failureReport, failureTitle, type ReportContext } from './report.js';

/** XML 1.0 text: markup escaped, characters XML cannot carry at all replaced. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlText(String(value))}"`)
    .join('');

/**
 * The run as JUnit XML (the Ant schema CI systems read): one testsuite, one testcase per scenario,
 * its class the operation, path or `stateful`; a failed one carries the report of each failure it
 * found, with curl commands. Operations not tested and not exercised are testcases too.
 */
export function junitXml(run: RunResult, context: ReportContext, timestamp = new Date()): string {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  const testcase = (classname: string, name: string, time: number, inner?: string) => {
    const open = `    <testcase${attributes({ classname, name, time: time.toFixed(3) })}`;
    cases.push(inner === undefined ? `${open}/>` : `${open}>\n      ${inner}\n    </testcase>`);
  };
  for (const result of run.scenarios) {
    if (result.status === 'skipped') {
      skipped += 1;
      testcase(result.group, result.name, 0, `<skipped${attributes({ message: result.note ?? '' })}/>`);
    } else if (result.status === 'failed') {
      failures += 1;
      const found = run.failures.filter(({ scenario }) => scenario === result.name);
      const report = found.map((failure) => failureReport(run, failure, context)).join('\n\n');
      testcase(
        result.group,
        result.name,
        result.seconds,
        `<failure${attributes({ message: found.map(failureTitle).join('; '), type: 'ContractViolation' })}>${xmlText(report)}</failure>`,
      );
    } else {
      testcase(result.group, result.name, result.seconds);
    }
  }
  for (const { operation, reason } of run.skipped) {
    skipped += 1;
    testcase(operation, `${operation}: not tested`, 0, `<skipped${attributes({ message: reason })}/>`);
  }
  for (const operation of run.notExercised) {
    const message = `no valid request got a success (2xx) from ${operation}`;
    if (run.failOnNotExercised) failures += 1;
    else skipped += 1;
    testcase(
      operation,
      `${operation}: exercised`,
      0,
      run.failOnNotExercised ? `<failure${attributes({ message, type: 'NotExercised' })}/>` : `<skipped${attributes({ message })}/>`,
    );
  }
  const counts = { tests: cases.length, failures, errors: 0, skipped, time: run.seconds.toFixed(3) };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'contract-test', ...counts })}>`,
    `  <testsuite${attributes({ name: `contract tests of ${run.baseUrl}`, ...counts, timestamp: timestamp.toISOString().slice(0, 19) })}>`,
    '    <properties>',
    `      <property${attributes({ name: 'base-url', value: run.baseUrl })}/>`,
    `      <property${attributes({ name: 'seed', value: run.seed })}/>`,
    `      <property${attributes({ name: 'spec', value: `${run.specTitle} ${run.specVersion}` })}/>`,
    `      <property${attributes({ name: 'requests', value: run.requests })}/>`,
    `      <property${attributes({ name: 'checks', value: run.checks.join(',') })}/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
