/** One link of an RFC 8288 `Link` header. */
export interface WebLink {
  /** The target as sent: often a path-absolute reference such as `/v1/pets?cursor=…`. */
  href: string;
  /** Relation types, lower-cased (`rel="next last"` gives both). */
  rel: string[];
  /** Other parameters (title, type, …), unquoted; names lower-cased. */
  params: Record<string, string>;
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const PARAM = `\\s*;\\s*${TOKEN}\\s*(?:=\\s*(?:${QUOTED}|${TOKEN}))?`;
const LINK_VALUE = new RegExp(`\\s*<([^>]*)>((?:${PARAM})*)\\s*(?:,|$)`, 'y');
const PARAM_PARTS = new RegExp(`;\\s*(${TOKEN})\\s*(?:=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|(${TOKEN})))?`, 'g');

/**
 * Parses a `Link` header (several headers arrive joined by commas). Commas and semicolons inside
 * quoted titles are kept; parsing stops at the first malformed link-value.
 */
export function parseLinkHeader(header: string | null | undefined): WebLink[] {
  const links: WebLink[] = [];
  if (!header) return links;
  LINK_VALUE.lastIndex = 0;
  for (let match = LINK_VALUE.exec(header); match; match = LINK_VALUE.exec(header)) {
    const params: Record<string, string> = {};
    for (const [, name, quoted, token] of match[2]!.matchAll(PARAM_PARTS)) {
      const key = name!.toLowerCase();
      // RFC 8288: only the first occurrence of a parameter counts.
      if (!(key in params)) params[key] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (token ?? '');
    }
    links.push({ href: match[1]!, rel: (params['rel'] ?? '').toLowerCase().split(/\s+/).filter(Boolean), params });
    if (LINK_VALUE.lastIndex >= header.length) break;
  }
  return links;
}

export function findLink(header: string | null | undefined, rel: string): WebLink | undefined {
  return parseLinkHeader(header).find((link) => link.rel.includes(rel));
}
