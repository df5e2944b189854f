import { isSuccessStatus, type ApiModel, type LinkModel, type OperationModel, type ResponseModel, type Schema } from '../spec/model.js';
import { escapePointerToken } from '../spec/openapi.js';

/** The runtime expression of an answer's `Location`: an inferred link takes the last segment of its path. */
export const LOCATION_EXPRESSION = '$response.header.Location';

/** The JSON types a schema allows; undefined when it names none (any). */
function typesOf(schema: Schema | undefined): Set<string> | undefined {
  const type = schema?.['type'];
  if (type === undefined) return undefined;
  return new Set((Array.isArray(type) ? type : [type]) as string[]);
}

/**
 * Whether the values of a response's property can fill a path parameter: a type the parameter
 * takes, integers and numbers alike, or a number where the parameter takes any text (no format or
 * pattern that a number's digits might not meet).
 */
export function typesFit(property: Schema, parameter: Schema): boolean {
  const from = typesOf(property);
  const to = typesOf(parameter);
  if (!from || !to) return true;
  const numeric = (types: Set<string>) => types.has('integer') || types.has('number');
  if ([...from].some((type) => to.has(type))) return true;
  if (numeric(from) && numeric(to)) return true;
  return numeric(from) && to.has('string') && parameter['format'] === undefined && parameter['pattern'] === undefined;
}

/** Whether a value an answer carried can fill a path parameter of this schema. */
export function valueFits(value: unknown, parameter: Schema): boolean {
  if (value === null || value === undefined || typeof value === 'object') return false;
  const to = typesOf(parameter);
  if (!to) return true;
  if (typeof value === 'number') return to.has('number') || to.has('string') || (to.has('integer') && Number.isInteger(value));
  if (typeof value === 'string') return to.has('string') || ((to.has('integer') || to.has('number')) && /^-?\d+$/.test(value));
  return to.has(typeof value) || to.has('string');
}

/** A property's schema, from the schema's own properties or its allOf parts'. */
function propertyOf(schema: Schema | undefined, name: string, depth = 0): Schema | undefined {
  if (!schema || depth > 4) return undefined;
  const own = (schema['properties'] as Record<string, Schema> | undefined)?.[name];
  if (own) return own;
  for (const part of (schema['allOf'] as Schema[] | undefined) ?? []) {
    const found = propertyOf(part, name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The operations on the resource a POST makes: those at its path one parameter longer (POST /pets → /pets/{petId}). */
function consumersOf(api: ApiModel, producer: OperationModel): Array<{ operation: OperationModel; name: string }> {
  const prefix = `${producer.path.replace(/\/$/, '')}/{`;
  return api.operations.flatMap((operation) => {
    const match = operation.path.startsWith(prefix) ? /^([^}/]+)\}$/.exec(operation.path.slice(prefix.length)) : null;
    return match ? [{ operation, name: match[1]! }] : [];
  });
}

/**
 * The link a producer's response gives a consumer: its path parameter from the body's property of
 * the same name, else the body's `id`, where the types fit; else from the `Location` the answer
 * may carry. The producer's own path parameters (`/owners/{ownerId}/pets`) go along unchanged.
 */
function inferredLink(producer: OperationModel, response: ResponseModel, target: OperationModel, name: string): LinkModel | undefined {
  const parameter = target.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
  if (!parameter) return undefined;
  const carried = Object.fromEntries(
    [...producer.path.matchAll(/\{([^}]+)\}/g)].map(([, own]) => [own!, `$request.path.${own!}`] as const),
  );
  const property = [name, 'id'].find((candidate) => {
    const schema = propertyOf(response.schema, candidate);
    return schema !== undefined && typesFit(schema, parameter.schema);
  });
  if (property !== undefined) {
    return {
      name: `${target.id} (inferred: ${name} from the body's ${property})`,
      targetOperationId: target.id,
      parameters: { ...carried, [name]: `$response.body#/${escapePointerToken(property)}` },
      inferred: 'body',
    };
  }
  return {
    name: `${target.id} (inferred: ${name} from Location)`,
    targetOperationId: target.id,
    parameters: { ...carried, [name]: LOCATION_EXPRESSION },
    inferred: 'location',
  };
}

/**
 * Adds to the model the links its schemas imply and its `links` do not declare, as Schemathesis
 * does: each success of a POST (the producer) links to every operation on the resource it makes
 * (the consumers, at its path one parameter longer). A link the response declares to an operation
 * wins: none is inferred beside it. Returns how many links were added.
 */
export function inferLinks(api: ApiModel): number {
  let added = 0;
  for (const producer of api.operations.filter(({ method }) => method === 'post')) {
    const consumers = consumersOf(api, producer);
    if (!consumers.length) continue;
    for (const response of producer.responses.filter(({ status }) => isSuccessStatus(status))) {
      const linked = new Set(response.links.map(({ targetOperationId }) => targetOperationId));
      for (const { operation, name } of consumers.filter(({ operation: consumer }) => !linked.has(consumer.id))) {
        const link = inferredLink(producer, response, operation, name);
        if (!link) continue;
        response.links.push(link);
        added += 1;
      }
    }
  }
  return added;
}
