import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines for the service. Written asynchronously to stdout by default: lines that arrive while a
 * write is under way go out together in the next one, instead of one write system call per request
 * on the request path; pino flushes what is pending when the process exits.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
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
