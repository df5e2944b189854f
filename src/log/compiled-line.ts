import fastJson from 'fast-json-stringify';
import { pino, type Level, type Logger } from 'pino';

const symbols = pino.symbols;

interface Stream {
  write(line: string): unknown;
}

/** The JSON Schema of a line's fields: an object's `properties`. */
export interface LineSchema {
  properties: Readonly<Record<string, object>>;
}

/** One kind of line: whether its level is enabled now, and the writer of a line, to call only then. */
export interface LineWriter<T> {
  enabled(): boolean;
  write(fields: T): void;
}

/**
 * A log line with a fixed set of fields, written as pino writes it (its level, time and bindings
 * first, then the fields, then the message, to the logger's stream) but with the fields turned into
 * JSON by a serialiser compiled once from their schema (fast-json-stringify) instead of pino's
 * walk over each object's keys. Hand-made because pino has no per-call-site compiled serialiser.
 * Fields the schema does not list are not written, an undefined optional one is left out. A
 * logger with anything this cannot reproduce (a mixin, a log formatter, a nested key, a write hook,
 * a stream that reads the last line's metadata, another message key) gets the ordinary pino call.
 */
export function compiledLine<T extends object>(logger: Logger, level: Level, message: string, schema: LineSchema): LineWriter<T> {
  // pino's state as its own log calls read it, through the symbols it exports.
  const state = <V>(symbol: symbol) => (logger as unknown as Record<symbol, unknown>)[symbol] as V;
  const stream = state<Stream & Record<symbol, unknown>>(symbols.streamSym);
  const plain =
    !state(symbols.mixinSym) &&
    !state<{ log?: unknown }>(symbols.formattersSym).log &&
    !state(symbols.nestedKeySym) &&
    !state<{ streamWrite?: unknown }>(symbols.hooksSym).streamWrite &&
    stream[symbols.needsMetadataGsym] !== true &&
    state(symbols.messageKeySym) === 'msg';
  const enabled = () => logger.isLevelEnabled(level);
  if (!plain) return { enabled, write: (fields) => logger[level](fields as object, message) };
  const stringify = fastJson({ type: 'object', ...schema } as Parameters<typeof fastJson>[0]) as (fields: T) => string;
  const number = logger.levels.values[level]!;
  const head = state<Record<number, string>>(symbols.lsCacheSym)[number]!;
  const tail = `,"msg":${JSON.stringify(message)}${state<string>(symbols.endSym)}`;
  const bindings = state<string>(symbols.chindingsSym);
  const time = state<() => string>(symbols.timeSym).bind(logger);
  return {
    enabled,
    write: (fields) => {
      const json = stringify(fields);
      // The fields' object without its braces, between pino's framing; no comma for no fields.
      const body = json.length > 2 ? `,${json.slice(1, -1)}` : '';
      stream.write(head + time() + bindings + body + tail);
    },
  };
}
