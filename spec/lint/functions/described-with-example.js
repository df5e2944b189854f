// Spectral function (.spectral.yaml): a part of the spec has a description and an example, so the
// published reference, the mock server and the contract tester's cases all have them. A `$ref` is
// checked where it points. Option `kind`: parameter, header, response, requestBody, schema (a
// component schema, and each of its properties that is not a $ref).
import { where } from './where.js';

const hasExample = (holder) => holder?.example !== undefined || (holder?.examples !== undefined && holder.examples !== null);

function missing(path, what, fix, name) {
  return { message: `${where(path, name)} has no ${what}: ${fix}`, path };
}

function describe(target, path) {
  return typeof target.description === 'string' && target.description.trim() !== ''
    ? []
    : [missing(path, 'description', 'add `description:`, saying what it is for', target.name)];
}

/** Media types (request or response content) each with an example. */
function mediaExamples(target, path) {
  return Object.entries(target.content ?? {})
    .filter(([, media]) => !hasExample(media))
    .map(([type]) =>
      missing([...path, 'content', type], `${type} example`, `add \`examples:\` under content.${type}, each with a \`value:\``),
    );
}

const CHECKS = {
  parameter: (target, path) => [
    ...describe(target, path),
    ...(hasExample(target) ? [] : [missing(path, 'example', 'add `example:`, a value its schema accepts', target.name)]),
  ],
  header: (target, path) => [
    ...describe(target, path),
    ...(hasExample(target) || hasExample(target.schema)
      ? []
      : [missing(path, 'example', 'add `examples: [...]` to its schema, values its schema accepts')]),
  ],
  response: (target, path) => [...describe(target, path), ...mediaExamples(target, path)],
  requestBody: (target, path) => [...describe(target, path), ...mediaExamples(target, path)],
  schema: (target, path) => [
    ...describe(target, path),
    ...(Array.isArray(target.examples) ? [] : [missing(path, 'examples', 'add `examples: [...]`, values it accepts')]),
    ...Object.entries(target.properties ?? {})
      .filter(([, property]) => property && typeof property === 'object' && property.$ref === undefined)
      .flatMap(([name, property]) => CHECKS.schema({ ...property, properties: undefined }, [...path, 'properties', name])),
  ],
};

export default function describedWithExample(target, { kind }, context) {
  if (!target || typeof target !== 'object' || typeof target.$ref === 'string') return [];
  return CHECKS[kind](target, context.path);
}
