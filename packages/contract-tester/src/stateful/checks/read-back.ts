import { defineCheck } from '../../checks/define.js';
import { jsonEqual, jsonText } from '../../generate/json-text.js';
import { documentedResponse } from '../../spec/model.js';
import { addressesExactly, whereOf, type SequenceStep } from './sequence-step.js';

/** A read of a resource the sequence wrote answers what the last write answered, where both answers have the same schema. */
export const readBack = defineCheck({
  name: 'read_back',
  on: 'profile',
  description: 'a read after a write answers what the write answered',
  check: function readBack(step: SequenceStep): string[] {
    const { exchange, before } = step;
    const { request, response, operation } = exchange;
    if (before?.state !== 'present' || !addressesExactly(step) || request.method.toUpperCase() !== 'GET') return [];
    if (response.status < 200 || response.status >= 300 || before.last === 'unknown') return [];
    const pointer = documentedResponse(operation, response.status)?.schemaPointer;
    if (pointer === undefined || pointer !== before.last.schemaPointer || jsonEqual(before.last.body, response.body)) return [];
    return [`${whereOf(exchange)}: reads back ${jsonText(response.body)}, not what the last write answered: ${jsonText(before.last.body)}`];
  },
});
