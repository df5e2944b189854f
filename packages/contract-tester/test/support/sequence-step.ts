import type { SequenceStep } from '../../src/stateful/checks/sequence-step.js';
import type { LinkStep } from '../../src/stateful/links.js';
import type { Resource } from '../../src/stateful/resources.js';
import type { LinkModel } from '../../src/spec/model.js';
import { answered, GET_PET, operationOf } from './case-answer.js';

/** The pet the sequence made: /v1/pets/1, by createPet, as its last write answered it. */
export const PET_RESOURCE: Resource = {
  template: '/pets/{petId}',
  parameters: { petId: '1' },
  path: '/v1/pets/1',
  createdBy: 'createPet',
  created: { id: 1, name: 'Rex' },
  state: 'present',
  last: {
    body: { id: 1, name: 'Rex' },
    schemaPointer: operationOf('getPet').responses.find(({ status }) => status === '200')!.schemaPointer,
  },
  writes: 1,
};

/** A step of a sequence: `METHOD target` (getPet's GET /v1/pets/1 by default) answered with a status, on the pet as it was. */
export function step(
  method: string,
  status: number,
  {
    target = GET_PET.target,
    body,
    state = 'present',
    link,
    operation = 'getPet',
    sinceLink = {},
  }: {
    target?: string;
    body?: unknown;
    state?: Resource['state'] | 'none';
    link?: LinkStep;
    operation?: string;
    sinceLink?: Partial<SequenceStep['sinceLink']>;
  } = {},
): SequenceStep {
  return {
    exchange: { operation: operationOf(operation), request: { ...GET_PET, method, target }, response: answered(status, body) },
    before: state === 'none' ? undefined : { resource: PET_RESOURCE, state, last: PET_RESOURCE.last },
    link,
    sinceLink: { written: false, deleted: false, sourceDeleted: false, ...sinceLink },
  };
}

/** A link followed from an answer (the pet store's createPet → getPet, or as given). */
export function linkStep(link: Partial<LinkModel> = {}, fromBody?: unknown): LinkStep {
  return {
    link: { name: 'GetPet', targetOperationId: 'getPet', parameters: {}, ...link },
    from: {
      operation: operationOf('createPet'),
      request: { ...GET_PET, method: 'POST', target: '/v1/pets' },
      response: answered(201, fromBody),
    },
    target: operationOf('getPet'),
    request: GET_PET,
  };
}
