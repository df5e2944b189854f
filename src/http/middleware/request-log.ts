import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../../log/logger.js';
import type { AuthenticatedLocals } from './authenticate.js';

// A client may wrongly put its key in the query string; it must not reach the logs from there.
const SECRET_QUERY_PARAMETER = /([?&](?:access_token|api_key|apikey|key|token)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETER, '$1[redacted]');
}

/** One line per request: method, path, status, time, and the key id (never the key). */
export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customProps: (_req, res) => {
      const principal = (res as ServerResponse & { locals?: Partial<AuthenticatedLocals> }).locals?.principal;
      return principal ? { keyId: principal.keyId, account: principal.accountName } : {};
    },
    serializers: {
      // Deliberately no headers: Authorization carries the key.
      req: (req: IncomingMessage & { originalUrl?: string }) => ({ method: req.method, url: redactUrl(req.originalUrl ?? req.url ?? '') }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      // pino-http invents an Error for every 5xx; its stack says nothing. Real failures are logged
      // in full by the error handler.
      err: (error: Error) => ({ type: error.name, message: error.message }),
    },
  }) as unknown as RequestHandler;
}
