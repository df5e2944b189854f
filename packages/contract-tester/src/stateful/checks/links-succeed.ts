import { defineCheck } from '../../checks/define.js';
import { whereOf, type SequenceStep } from './sequence-step.js';

/** The request headers that make a write conditional on the resource's state (RFC 9110 §13.1). */
const PRECONDITIONS = new Set(['if-match', 'if-unmodified-since']);

function hasPrecondition(headers: Array<{ name: string }>): boolean {
  return headers.some(({ name }) => PRECONDITIONS.has(name.toLowerCase()));
}

/**
 * A link the spec declares, followed from a success, leads to a success. A link that carries a
 * precondition (an ETag into If-Match) holds only until the resource is written again: after such
 * a write, its 412 is the right answer. A link to what the sequence has deleted since leads
 * nowhere: its 404 or 410 is the right answer. A link from what the sequence has deleted since (an
 * order for a pet that is gone) may name what no longer exists, in its parameters or its body: any
 * 4xx is an answer the server may give. An inferred link is the tester's guess, and promises nothing.
 */
export const linksSucceed = defineCheck({
  name: 'links_succeed',
  on: 'profile',
  description: 'every link followed from a success leads to a success',
  check: function linksSucceed({ exchange, link, sinceLink }: SequenceStep): string[] {
    const { request, response } = exchange;
    const { status } = response;
    if (!link || link.link.inferred || (status >= 200 && status <= 299)) return [];
    const stalePrecondition = status === 412 && sinceLink.written && hasPrecondition(request.headers);
    const gone = (status === 404 || status === 410) && sinceLink.deleted;
    const orphaned = status >= 400 && status < 500 && sinceLink.sourceDeleted;
    if (stalePrecondition || gone || orphaned) return [];
    return [`${whereOf(exchange)}: a link from a success must lead to a success`];
  },
});
