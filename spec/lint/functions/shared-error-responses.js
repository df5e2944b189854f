// Spectral function (.spectral.yaml): every error response (4xx, 5xx, default) of an operation is a
// `$ref` to components.responses, where each is written once with the Error object.
import { operationOf } from './where.js';

export default function sharedErrorResponses(responses, _options, context) {
  if (!responses || typeof responses !== 'object') return [];
  return Object.entries(responses)
    .filter(([status]) => /^[45]/.test(status) || status === 'default')
    .filter(([, response]) => typeof response?.$ref !== 'string' || !response.$ref.startsWith('#/components/responses/'))
    .map(([status]) => ({
      message: `${operationOf(context.path)} writes its ${status} response in place: define it once under components.responses (or use the one there) and write '${status}': { $ref: '#/components/responses/NAME' }`,
      path: [...context.path, status],
    }));
}
