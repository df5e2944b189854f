import { describe, expect, it } from 'vitest';
import { findLink, parseLinkHeader } from 'web-linking';

describe('parseLinkHeader (RFC 8288)', () => {
  it('reads the next link the server sends', () => {
    expect(findLink('</v1/pets?limit=20&cursor=cDE6MjA>; rel="next"', 'next')?.href).toBe('/v1/pets?limit=20&cursor=cDE6MjA');
  });

  it('reads several links, unquoted and multi-valued rels, and commas and escapes inside quoted titles', () => {
    const header =
      '</v1/pets>; rel="successor-version"; title="GET, \\"then\\" filter", <https://x.test/a;b>;REL=Next, </last>; rel="prev last"';
    expect(parseLinkHeader(header)).toEqual([
      { href: '/v1/pets', rel: ['successor-version'], params: { rel: 'successor-version', title: 'GET, "then" filter' } },
      { href: 'https://x.test/a;b', rel: ['next'], params: { rel: 'Next' } },
      { href: '/last', rel: ['prev', 'last'], params: { rel: 'prev last' } },
    ]);
    expect(findLink(header, 'last')?.href).toBe('/last');
  });

  it.each([null, '', 'garbage', '/v1/pets; rel="next"'])('finds no link in %j', (header) => {
    expect(findLink(header, 'next')).toBeUndefined();
  });

  it('takes the first of a repeated parameter, as RFC 8288 says', () => {
    expect(parseLinkHeader('</a>; rel=next; rel=prev')[0]?.rel).toEqual(['next']);
  });
});
