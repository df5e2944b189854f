import { parseInstant } from './deprecations.js';
import { parametersOf, resolveRef, type OpenApiDocument, type OperationEntry, type SchemaObject } from './spec.js';

/** A parameter or a top-level request body property marked `deprecated: true`, that a request may still use. */
export interface DeprecatedInput {
  in: 'query' | 'header' | 'body';
  name: string;
  /** How messages and logs name it: `query.status`, `body.status`. */
  field: string;
  /** `x-deprecation.deprecatedAt`: the date the Deprecation header carries (RFC 9745). */
  deprecatedAt: Date;
  /** `x-deprecation.replacement`, when the spec names one: what to use instead. */
  replacement?: string;
}

interface Marked {
  deprecated?: boolean;
  'x-deprecation'?: { deprecatedAt?: unknown; replacement?: unknown };
}

function readMarked(marked: Marked, where: string): Pick<DeprecatedInput, 'deprecatedAt' | 'replacement'> {
  const extension = marked['x-deprecation'];
  if (extension?.deprecatedAt === undefined)
    throw new Error(`openapi.yaml: ${where} is deprecated: it needs x-deprecation.deprecatedAt (the Deprecation header's date)`);
  const date = parseInstant(extension.deprecatedAt, `${where} x-deprecation.deprecatedAt`);
  const replacement = extension?.replacement;
  return typeof replacement === 'string' ? { deprecatedAt: date, replacement } : { deprecatedAt: date };
}

/** The top-level properties of an operation's JSON request body schema, `allOf` members included. */
function bodyProperties(document: OpenApiDocument, { operation }: OperationEntry): Array<[string, SchemaObject]> {
  const body = resolveRef(document, (operation.requestBody ?? {}) as { content?: Record<string, { schema?: SchemaObject }> });
  const found = new Map<string, SchemaObject>();
  const visit = (schema: SchemaObject | undefined): void => {
    if (!schema) return;
    const resolved = resolveRef(document, schema);
    for (const [name, property] of Object.entries((resolved['properties'] ?? {}) as Record<string, SchemaObject>)) {
      // A `$ref` may carry `deprecated: true` beside it (OpenAPI 3.1), or the schema it points at.
      found.set(name, (property as Marked).deprecated === true ? property : resolveRef(document, property));
    }
    for (const member of (resolved['allOf'] ?? []) as SchemaObject[]) visit(member);
  };
  for (const media of Object.values(body.content ?? {})) visit(media.schema);
  return [...found];
}

/**
 * Each operation's parameters (query and header) and top-level body properties marked
 * `deprecated: true`, by operationId; operations with none are left out. Every one needs
 * `x-deprecation.deprecatedAt`, as a deprecated operation does, so the server can say since when.
 */
export function readDeprecatedInputs(document: OpenApiDocument, operations: readonly OperationEntry[]): Map<string, DeprecatedInput[]> {
  const table = new Map<string, DeprecatedInput[]>();
  for (const entry of operations) {
    const { operationId } = entry.operation;
    const inputs: DeprecatedInput[] = [];
    for (const parameter of parametersOf(document, entry.operation) as Array<ReturnType<typeof parametersOf>[number] & Marked>) {
      if (parameter.deprecated !== true || (parameter.in !== 'query' && parameter.in !== 'header')) continue;
      const field = `${parameter.in}.${parameter.name}`;
      inputs.push({ in: parameter.in, name: parameter.name, field, ...readMarked(parameter, `${operationId} ${field}`) });
    }
    for (const [name, property] of bodyProperties(document, entry)) {
      if ((property as Marked).deprecated !== true) continue;
      inputs.push({ in: 'body', name, field: `body.${name}`, ...readMarked(property, `${operationId} body.${name}`) });
    }
    if (inputs.length > 0) table.set(operationId, inputs);
  }
  return table;
}
