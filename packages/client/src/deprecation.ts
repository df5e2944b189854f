import type { Middleware } from 'openapi-fetch';
import { findLink } from 'web-linking';

/** What a response of a deprecated operation says about its retirement. */
export interface DeprecationNotice {
  /** Method and spec path, e.g. `GET /pets/{petId}`. */
  operation: string;
  /** From the RFC 9745 `Deprecation` header. */
  deprecatedAt?: Date;
  /** From the RFC 8594 `Sunset` header: the operation answers `410` from then on. */
  sunset?: Date;
  /** The `Link: rel="successor-version"` target, resolved to an absolute URL. */
  successor?: { href: string; title?: string };
  /** All of the above in one sentence, as the default handler prints it. */
  message: string;
}

export type DeprecationHandler = (notice: DeprecationNotice) => void;

export const warnOnConsole: DeprecationHandler = (notice) => console.warn(notice.message);

// Keyed by handler so that the default one warns once per process however many clients exist,
// while a handler passed in hears of each operation once, independently of the default.
const noticed = new WeakMap<DeprecationHandler, Set<string>>();

function parseDeprecation(value: string | null): Date | undefined {
  const seconds = value ? /^@(-?\d+)$/.exec(value.trim())?.[1] : undefined;
  return seconds === undefined ? undefined : new Date(Number(seconds) * 1000);
}

function parseHttpDate(value: string | null): Date | undefined {
  const date = value ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

const isoSeconds = (date: Date) => date.toISOString().replace('.000Z', 'Z');

function describe(notice: Omit<DeprecationNotice, 'message'>): string {
  const since = notice.deprecatedAt ? ` since ${isoSeconds(notice.deprecatedAt)}` : '';
  const sunset = notice.sunset ? ` and will be removed (Sunset) on ${isoSeconds(notice.sunset)}` : '';
  const { href, title } = notice.successor ?? {};
  const successor = href ? `; use ${title ? `${title} (${href})` : href} instead` : '';
  return `petstore-api: ${notice.operation} is deprecated${since}${sunset}${successor}.`;
}

/** Tells `handler` once per operation when a response carries `Deprecation` or `Sunset`. */
export function reportDeprecations(handler: DeprecationHandler = warnOnConsole): Middleware {
  return {
    onResponse({ request, response, schemaPath }) {
      const headers = response.headers;
      if (!headers.has('Deprecation') && !headers.has('Sunset')) return undefined;
      const operation = `${request.method} ${schemaPath}`;
      const seen = noticed.get(handler) ?? new Set<string>();
      noticed.set(handler, seen);
      if (seen.has(operation)) return undefined;
      seen.add(operation);

      const link = findLink(headers.get('Link'), 'successor-version');
      const details: Omit<DeprecationNotice, 'message'> = {
        operation,
        deprecatedAt: parseDeprecation(headers.get('Deprecation')),
        sunset: parseHttpDate(headers.get('Sunset')),
        successor: link && {
          href: new URL(link.href, response.url || request.url).href,
          ...(link.params['title'] ? { title: link.params['title'] } : {}),
        },
      };
      handler({ ...details, message: describe(details) });
      return undefined;
    },
  };
}
