import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';

function externalRefs(node: unknown, found: string[]): string[] {
  if (Array.isArray(node)) for (const item of node) externalRefs(item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) found.push(value.split('#')[0]!);
      else externalRefs(value, found);
    }
  }
  return found;
}

/**
 * The spec's files: openapi.yaml and every local file it references by `$ref`, through the files
 * those reference. A file that cannot be read or parsed is still one of them (saving it again is
 * what will fix it), only its references are unknown.
 */
export function specFiles(specPath: string): string[] {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    let document: unknown;
    try {
      document = load(readFileSync(file, 'utf8'), { schema: CORE_SCHEMA });
    } catch {
      return;
    }
    for (const ref of externalRefs(document, [])) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) continue; // a URL, not a file here
      const target = resolve(dirname(file), ref);
      if (existsSync(target)) visit(target);
    }
  };
  visit(resolve(specPath));
  return [...files];
}
