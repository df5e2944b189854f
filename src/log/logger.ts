import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The most bytes of held lines one write takes. An asynchronous write completes once per turn of
 * the event loop, and under load a turn closes many responses: a write must take at least all the
 * lines of a turn, or the held lines grow for as long as the load lasts (memory, and a log that
 * lags ever further behind).
 */
export const LOG_WRITE_BYTES = 1024 * 1024;

/**
 * Where JSON lines go by default: a file descriptor (stdout) or a path, written asynchronously: lines
 * that arrive while a write is under way go out together in the next one, instead of one write
 * system call per request on the request path; what is still held is written when the process exits.
 *
 * pino's destination (sonic-boom) holds the lines as bytes (its buffer mode), each encoded once as it
 * arrives: held as text, every new line would be appended to the held text and the whole of it
 * measured again, a cost per line that grows with what is held, which kept the writes small. pino
 * writes text, so each line is encoded on its way in. As for any asynchronous pino.destination, pino
 * writes what is held when the process exits, and a reader gone away (EPIPE) ends the logging, not
 * the process.
 */
export function logDestination(dest: number | string = 1) {
  const stream = pino.destination({ dest, sync: false, contentMode: 'buffer', maxWrite: LOG_WRITE_BYTES });
  const writeBytes = stream.write.bind(stream) as unknown as (line: Uint8Array) => boolean;
  stream.write = (line: string) => writeBytes(Buffer.from(line));
  return stream;
}

/** JSON lines for the service, to logDestination() unless given another destination. */
export function createLogger(level: string, destination: DestinationStream = logDestination()): Logger {
  return pino(
    {
      level,
      base: { service: 'petstore-api' },
      // Belt and braces: the request serializer never includes headers, but nothing that could hold
      // key material is ever written even if a future log call passes a raw request.
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'key'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * LOG_FORMAT=pretty: pino-pretty's coloured, human-readable lines on stdout, for development. Loaded
 * only when asked for (it is not part of a JSON-logging start), and written synchronously, in this
 * thread: a process that exits still prints its last lines.
 */
export async function prettyDestination(): Promise<DestinationStream> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    destination: 1,
    sync: true,
    colorize: process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
}
