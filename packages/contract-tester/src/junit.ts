import { failureReport } from './report.js';
import type { RunResult } from './runner.js';

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
 * The run as JUnit XML (the Ant schema CI systems read): one testsuite, one testcase per check,
 * its class the operation, path or `links`; a failure carries the report with its curl commands.
 */
export function junitXml(run: RunResult, timestamp = new Date()): string {
  const failures = run.results.filter(({ status }) => status === 'failed').length;
  const skipped = run.results.filter(({ status }) => status === 'skipped').length;
  const counts = { tests: run.results.length, failures, errors: 0, skipped, time: run.seconds.toFixed(3) };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'contract-test', ...counts })}>`,
    `  <testsuite${attributes({ name: `contract tests of ${run.baseUrl}`, ...counts, timestamp: timestamp.toISOString().slice(0, 19) })}>`,
    '    <properties>',
    `      <property${attributes({ name: 'base-url', value: run.baseUrl })}/>`,
    `      <property${attributes({ name: 'seed', value: run.seed })}/>`,
    `      <property${attributes({ name: 'spec-version', value: run.specVersion })}/>`,
    `      <property${attributes({ name: 'requests', value: run.requests })}/>`,
    '    </properties>',
  ];
  for (const result of run.results) {
    const open = `    <testcase${attributes({ classname: result.group, name: result.name, time: result.seconds.toFixed(3) })}`;
    if (result.status === 'passed') {
      lines.push(`${open}/>`);
    } else if (result.status === 'skipped') {
      lines.push(`${open}>`, `      <skipped${attributes({ message: result.note ?? '' })}/>`, '    </testcase>');
    } else {
      const message = result.failure!.problems.find((problem) => !problem.startsWith('the request: ')) ?? result.failure!.problems[0] ?? '';
      lines.push(
        `${open}>`,
        `      <failure${attributes({ message: message.split('\n')[0]!, type: 'ContractViolation' })}>${xmlText(failureReport(run, result))}</failure>`,
        '    </testcase>',
      );
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
