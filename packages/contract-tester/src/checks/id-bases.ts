import { checkDeadline } from '../deadline.js';
import { escapePointerToken, pointerOfRef, valueAtPointer } from '../spec/openapi.js';

/**
 * The URI the response checker registers the document under. Absolute, so that a `$ref` to the
 * document resolves to it from inside a schema whose `$id` sets another base.
 */
export const DOCUMENT_URI = 'https://openapi-contract-tester.invalid/openapi';

interface Resource {
  schema: unknown;
  id: string;
  pointer: string;
}

/**
 * Reads each fragment `$ref` inside a schema that has an `$id` as the major tools do. JSON Schema
 * resolves it against the `$id`'s resource; where it names nothing there but names a schema of the
 * document (`#/components/schemas/Tag`, as most OpenAPI documents mean it), it is pointed at the
 * document, and a warning says so. Rewrites the checker's own copy in place; returns the warnings.
 */
export function refsAgainstDocument(document: object): string[] {
  const warnings: string[] = [];
  const stack: Array<{ node: unknown; pointer: string; resource: Resource | undefined }> = [
    { node: document, pointer: '', resource: undefined },
  ];
  for (let read = 1; stack.length; read++) {
    if (read % 10_000 === 0) checkDeadline();
    const { node, pointer, resource: outer } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    const id = Array.isArray(node) || pointer === '' ? undefined : record['$id'];
    const resource = typeof id === 'string' ? { schema: node, id, pointer } : outer;
    const ref = record['$ref'];
    if (resource && typeof ref === 'string' && /^#(\/|$)/.test(ref)) {
      const fragment = pointerOfRef(ref);
      if (valueAtPointer(resource.schema, fragment) === undefined && valueAtPointer(document, fragment) !== undefined) {
        record['$ref'] = `${DOCUMENT_URI}${ref}`;
        warnings.push(
          `the $ref ${ref} at #${pointer}, inside the schema #${resource.pointer} whose $id is ${resource.id}, names nothing in that schema: read against the document, as most OpenAPI tools read it`,
        );
      }
    }
    for (const [key, value] of Object.entries(node))
      if (value !== null && typeof value === 'object')
        stack.push({ node: value, pointer: `${pointer}/${escapePointerToken(key)}`, resource });
  }
  return warnings;
}
