import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: 'petstore-api' },
      // Belt and braces: the request serializer never includes headers, but nothing that could hold
      // key material is ever written even if a future log call passes a raw request.
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'key'], censor: '[redacted]' },
    },
    // Written asynchronously: lines that arrive while a write is under way go out together in the
    // next one, instead of one write system call per request on the request path. pino flushes
    // what is pending when the process exits.
    pino.destination({ dest: 1, sync: false }),
  );
}
