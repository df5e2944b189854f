import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The most bytes of held lines one write takes (sonic-boom's `maxWrite`, 16 KiB by default). While a
 * write is under way, sonic-boom appends each new line to the last chunk it holds and measures that
 * whole chunk in UTF-8 again first, so the work per line grows with the chunk: a smaller chunk keeps
 * it small, and still writes many lines per system call.
 */
export const LOG_WRITE_BYTES = 4096;

/**
 * Where JSON lines go by default: a file descriptor (stdout) or a path, written asynchronously: lines
 * that arrive while a write is under way go out together in the next one, instead of one write
 * system call per request on the request path; pino flushes what is pending when the process exits.
 */
export function logDestination(dest: number | string = 1) {
  return pino.destination({ dest, sync: false, maxWrite: LOG_WRITE_BYTES });
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
