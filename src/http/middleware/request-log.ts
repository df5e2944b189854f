import type { RequestHandler } from 'express';
import type { Logger } from '../../log/logger.js';
import type { AuthenticatedLocals } from './authenticate.js';
import { arrivedMethod } from './request-target.js';

// A client may wrongly put its key in the query string; it must not reach the logs from there.
const SECRET_QUERY_PARAMETER = /([?&](?:access_token|api_key|apikey|key|token)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETER, '$1[redacted]');
}

/**
 * One line per request, when the response is done: method, path, status, time, and the key id
 * (never the key, and deliberately no headers: Authorization carries the key). The fields are
 * pino-http's (reqId, req, res, responseTime, msg), written with one pino call: pino-http made
 * three child loggers per request, serialising their bindings each time. Failures themselves are
 * logged in full by the error handler.
 */
export function requestLog(logger: Logger): RequestHandler {
  // These lines hold only the fields built below, none of which can carry a key, so they skip the
  // logger's belt-and-braces redaction, which costs time on every line.
  const lineLogger = logger.child({}, { redact: { paths: [], censor: '[redacted]' } });
  let lastId = 0;
  return (req, res, next) => {
    const started = Date.now();
    const reqId = ++lastId;
    // 'close' follows 'finish', and also comes alone when the client goes away first.
    res.once('close', () => {
      const statusCode = res.statusCode;
      const failed = statusCode >= 500;
      if (!lineLogger.isLevelEnabled(failed ? 'error' : 'info')) return;
      const principal = (res.locals as Partial<AuthenticatedLocals>).principal;
      const line = {
        reqId,
        req: { method: arrivedMethod(req), url: redactUrl(req.originalUrl) },
        res: { statusCode },
        ...(failed ? { err: { type: 'Error', message: `failed with status code ${statusCode}` } } : {}),
        responseTime: Date.now() - started,
        ...(principal ? { keyId: principal.keyId, account: principal.accountName } : {}),
      };
      if (failed) lineLogger.error(line, 'request errored');
      else lineLogger.info(line, 'request completed');
    });
    next();
  };
}
