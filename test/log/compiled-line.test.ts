import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { compiledLine } from '../../src/log/compiled-line.js';
import { createLogger } from '../../src/log/logger.js';

/** Lines written to a stream, as they arrived. */
function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream };
}

const SCHEMA = { properties: { id: { type: 'string' }, status: { type: 'integer' }, note: { type: 'string' } } } as const;
type Fields = { id: string; status: number; note: string | undefined };
const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('a compiled log line', () => {
  it('is written byte for byte as the same pino call writes it, an undefined field left out', () => {
    const { lines, stream } = sink();
    const logger = createLogger('info', stream);
    const line = compiledLine<Fields>(logger, 'info', 'request "done"', SCHEMA);
    const fields = { id: 'a"b\\c\u2028', status: 200, note: undefined };
    line.write(fields);
    logger.info(fields, 'request "done"');
    expect(lines).toHaveLength(2);
    expect(withoutTime(lines[0]!)).toBe(withoutTime(lines[1]!));
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 30,
      service: 'petstore-api',
      id: 'a"b\\c\u2028',
      status: 200,
      msg: 'request "done"',
    });
  });

  it("follows the logger's level as it changes", () => {
    const logger = createLogger('warn', sink().stream);
    const line = compiledLine<Fields>(logger, 'info', 'done', SCHEMA);
    expect(line.enabled()).toBe(false);
    logger.level = 'info';
    expect(line.enabled()).toBe(true);
  });

  it('falls back to the pino call for a logger it cannot reproduce (a mixin here)', () => {
    const { lines, stream } = sink();
    const logger = pino({ mixin: () => ({ mixed: true }) }, stream);
    compiledLine<Fields>(logger, 'info', 'done', SCHEMA).write({ id: 'x', status: 1, note: 'n' });
    expect(JSON.parse(lines[0]!)).toMatchObject({ mixed: true, id: 'x', status: 1, note: 'n', msg: 'done' });
  });
});
