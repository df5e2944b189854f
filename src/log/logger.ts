// The declaration travels with this module: the workspaces' programs take it in through here.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient declaration has no import form
/// <reference path="./on-exit-leak-free.d.ts" />
import { pino, type DestinationStream, type Logger } from 'pino';
import onExit from 'on-exit-leak-free';
import sonicBoom from 'sonic-boom';

export type { Logger };

/**
 * The most bytes of held lines one write takes. An asynchronous write completes once per turn of
 * the event loop, and under load a turn closes many responses: a write must take at least all the
 * lines of a turn, or the held lines grow for as long as the load lasts (memory, and a log that
 * lags ever further behind).
 */
export const LOG_WRITE_BYTES = 1024 * 1024;

/** The default destination: pino's own kind of stream (sonic-boom). */
export type LogDestination = DestinationStream & InstanceType<typeof sonicBoom.SonicBoom>;

/**
 * Where JSON lines go by default: a file descriptor (stdout) or a path, written asynchronously: lines
 * that arrive while a write is under way go out together in the next one, instead of one write
 * system call per request on the request path; what is still held is written when the process exits.
 *
 * sonic-boom (pino's own destination) holds the lines as bytes (its buffer mode), each encoded once
 * as it arrives: held as text, every new line would be appended to the held text and the whole of
 * it measured again, a cost per line that grows with what is held, which kept the writes small.
 * pino writes text, so each line is encoded here; pino.destination offers no buffer mode.
 */
export function logDestination(dest: number | string = 1): LogDestination {
  const stream = new sonicBoom.SonicBoom({ dest, sync: false, contentMode: 'buffer', maxWrite: LOG_WRITE_BYTES });
  const writeBytes = stream.write.bind(stream) as unknown as (line: Uint8Array) => boolean;
  stream.write = (line: string) => writeBytes(typeof line === 'string' ? Buffer.from(line) : line);
  // As pino.destination does: a reader gone away (EPIPE) ends logging rather than the process.
  stream.on('error', function stopOnBrokenPipe(error: NodeJS.ErrnoException) {
    if (error.code !== 'EPIPE') {
      stream.removeListener('error', stopOnBrokenPipe);
      stream.emit('error', error);
      return;
    }
    stream.write = () => true;
    stream.flushSync = () => {};
  });
  // As pino.destination does for an asynchronous one, with the same library: at exit, what is held
  // is written at once. One listener for every destination, each held weakly.
  onExit.register(stream, flushAtExit);
  stream.once('close', () => onExit.unregister(stream));
  return stream;
}

function flushAtExit(stream: LogDestination): void {
  // Not typed by sonic-boom: its file descriptor (-1 until a path is open) and whether it was destroyed.
  const { fd, destroyed } = stream as unknown as { fd: number; destroyed: boolean };
  if (!destroyed && fd >= 0) stream.flushSync();
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
