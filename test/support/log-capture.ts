import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log/logger.js';

/** A logger whose lines are kept, parsed, for tests to read. */
export function capturingLogger(level = 'info'): { logger: Logger; lines: Array<Record<string, unknown>>; text: () => string } {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger(level, stream);
  return {
    logger,
    get lines() {
      return raw
        .join('')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    text: () => raw.join(''),
  };
}
