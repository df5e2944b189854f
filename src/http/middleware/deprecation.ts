import type { RequestHandler } from 'express';
import type { Deprecation } from '../../contract/deprecations.js';
import { apiError } from '../../errors/api-error.js';
import { holdHeaders } from '../held-headers.js';
import { contextOf } from '../request-context.js';

export type Clock = () => Date;

/** A Deprecation header's value (RFC 9745): "@" followed by the Unix time in seconds. */
export function deprecationValue(since: Date | number): string {
  return `@${Math.floor(new Date(since).getTime() / 1000)}`;
}

/** The fields that mark a deprecated operation's answers, as holdHeaders takes them. */
function headersFor(deprecation: Deprecation): string[] {
  const { href, title } = deprecation.replacement;
  return [
    'Deprecation',
    deprecationValue(deprecation.deprecatedAt),
    // RFC 8594: an HTTP-date.
    'Sunset',
    deprecation.sunsetAt.toUTCString(),
    'Link',
    `<${href}>; rel="successor-version"${title ? `; title="${title.replace(/"/g, "'")}"` : ''}`,
  ];
}

/**
 * Marks every response of a deprecated operation, whatever its status, so clients learn of the
 * deprecation even from a 401. Mounted at the base path, before authentication.
 */
export function announceDeprecations(deprecations: readonly Deprecation[]): RequestHandler {
  // By request method, worked out once: most requests (every POST, here) need no path test at all.
  const byMethod = new Map<string, Array<{ deprecation: Deprecation; headers: string[] }>>();
  for (const deprecation of deprecations) {
    const method = deprecation.method.toUpperCase();
    byMethod.set(method, [...(byMethod.get(method) ?? []), { deprecation, headers: headersFor(deprecation) }]);
  }
  return (req, res, next) => {
    const entries = byMethod.get(req.method);
    const match = entries && entries.find(({ deprecation }) => deprecation.pathPattern.test(req.path));
    if (match) {
      holdHeaders(res, match.headers);
      contextOf(res).deprecation = match.deprecation;
    }
    next();
  };
}

/** From its sunset instant on, a deprecated operation answers 410. Mounted after authentication. */
export function enforceSunsets(clock: Clock): RequestHandler {
  return (req, res, next) => {
    const { deprecation } = contextOf(res);
    if (deprecation && clock() >= deprecation.sunsetAt) {
      throw apiError('operation_sunset', {
        operation: `${deprecation.method.toUpperCase()} ${req.baseUrl}${deprecation.path}`,
        sunset: deprecation.sunsetAt.toUTCString(),
        replacement: deprecation.replacement.title ?? deprecation.replacement.href,
      });
    }
    next();
  };
}
