import { defineCheck } from '../../checks/define.js';
import { jsonEqual, jsonText } from '../../generate/json-text.js';
import { whereOf, type SequenceStep } from './sequence-step.js';

/**
 * A page reached by a Link header's link repeats nothing of the page before. (A Link header that
 * cannot be read is this check's too: links.ts words it, sequences.ts reports it.)
 */
export const pagingConformance = defineCheck({
  name: 'paging_conformance',
  on: 'profile',
  description: 'a next page repeats nothing of the page before',
  check: function pagingConformance({ exchange, link }: SequenceStep): string[] {
    const { response } = exchange;
    if (!link?.link.header || !Array.isArray(link.from.response.body) || !Array.isArray(response.body)) return [];
    const previous = link.from.response.body as unknown[];
    const repeated = (response.body as unknown[]).filter((item) => previous.some((earlier) => jsonEqual(earlier, item)));
    if (!repeated.length) return [];
    return [
      `${whereOf(exchange)}: the ${link.link.header.rel} page repeats ${repeated.length} item(s) of the page before: ${jsonText(repeated[0])}`,
    ];
  },
});
