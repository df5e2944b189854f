// Spectral function (.spectral.yaml): an operation documents the given error responses, each by
// `$ref` to the shared response the server's answers match (the contract tester holds every answer
// to the responses the operation documents). Options: `responses`, status → components.responses
// name; `withRequestBody`: only operations that take a body.
import { operationOf } from './where.js';

export default function requiredResponses(operation, { responses, withRequestBody = false }, context) {
  if (!operation || typeof operation !== 'object') return [];
  if (withRequestBody && operation.requestBody === undefined) return [];
  const name = operationOf(context.path);
  const documented = operation.responses ?? {};
  const results = [];
  for (const [status, component] of Object.entries(responses)) {
    const ref = `#/components/responses/${component}`;
    const fix = `'${status}': { $ref: '${ref}' }`;
    const why = withRequestBody ? ' (it takes a request body)' : '';
    if (documented[status] === undefined) {
      results.push({
        message: `${name} does not document ${status}${why}: add ${fix} to its responses`,
        path: [...context.path, 'responses'],
      });
    } else if (documented[status].$ref !== ref) {
      results.push({
        message: `${name} documents ${status} otherwise than the shared response: make it ${fix}`,
        path: [...context.path, 'responses', status],
      });
    }
  }
  return results;
}
