import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORE_SCHEMA, load } from 'js-yaml';
import { checkDeadline } from '../deadline.js';
import { normalizeDialect } from './dialect.js';
import type { OpenApiDocument } from './openapi.js';

/** Where the documents of other files a spec `$ref`s are kept in it, each under its own key. */
export const BUNDLED = 'x-bundled';

/** A spec location as a URL: http(s) as given, anything else a file path relative to `cwd`. */
export function specUrl(location: string, cwd = process.cwd()): URL {
  if (/^https?:\/\//i.test(location) || location.startsWith('file:')) return new URL(location);
  // A path, not a URL: a space in it (HubSpot's `business units.json`) is a space, not `%20`.
  return pathToFileURL(resolve(cwd, location));
}

async function readText(url: URL): Promise<string> {
  if (url.protocol === 'file:') return readFile(url, 'utf8');
  const response = await fetch(url, { headers: { Accept: 'application/yaml, application/json;q=0.9, */*;q=0.5' } });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}`);
  return response.text();
}

/** YAML (1.2 core schema: plain scalars are strings, numbers, booleans or null; duplicate keys are an error) or JSON, which is YAML. */
function parseText(text: string, where: string): unknown {
  // JSON first when it looks like JSON: a document of tens of megabytes parses in a fraction of
  // js-yaml's time and memory. Anything JSON.parse refuses is left to js-yaml, whose messages say where.
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // YAML's flow style, or broken JSON: js-yaml says which.
    }
  }
  try {
    return load(text, { schema: CORE_SCHEMA });
  } catch (error) {
    throw new Error(`${where} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}

function checkVersion(document: unknown, where: string): asserts document is OpenApiDocument {
  const version = document && typeof document === 'object' ? (document as Record<string, unknown>)['openapi'] : undefined;
  if (typeof version === 'string' && /^3\.[01]\.\d+/.test(version)) return;
  const swagger = document && typeof document === 'object' ? (document as Record<string, unknown>)['swagger'] : undefined;
  if (swagger !== undefined) throw new Error(`${where} is Swagger ${JSON.stringify(swagger)}: convert it to OpenAPI 3 first`);
  throw new Error(`${where} is not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(version)})`);
}

function finish(document: OpenApiDocument): OpenApiDocument {
  document.paths ??= {};
  document.components ??= { schemas: {} };
  document.components.schemas ??= {};
  normalizeDialect(document);
  return document;
}

/** A spec from its text, when it `$ref`s no other file (tests and inline documents). */
export function parseSpec(text: string, where = 'the spec'): OpenApiDocument {
  const document = parseText(text, where);
  checkVersion(document, where);
  return finish(document);
}

/**
 * Reads a spec from a file or an http(s) URL, YAML or JSON, with every `$ref` to another file (or
 * URL) bundled in: each such document goes under `x-bundled` whole, and the references to it, and
 * its own local references, point there. A document referenced twice is read once; recursive
 * references across files stay references.
 */
export async function loadSpec(location: string, cwd?: string): Promise<OpenApiDocument> {
  const rootUrl = specUrl(location, cwd);
  const text = await readText(rootUrl);
  checkDeadline();
  const root = parseText(text, location);
  checkDeadline();
  checkVersion(root, location);
  const keys = new Map<string, string>();
  const bundled: Record<string, unknown> = {};
  const pending: Array<{ node: unknown; base: URL; key?: string }> = [{ node: root, base: rootUrl }];

  const keyOf = (url: URL): string => {
    const href = url.href.replace(/#.*$/, '');
    let key = keys.get(href);
    if (key === undefined) {
      key = `f${keys.size + 1}`;
      keys.set(href, key);
      pending.push({ node: undefined, base: new URL(href), key });
    }
    return key;
  };

  // Rewrites the refs of one document: to another file, to that file's place under x-bundled; local
  // ones of a bundled file, to its own place there.
  const rewrite = (node: unknown, base: URL, ownKey: string | undefined): void => {
    if (Array.isArray(node)) return node.forEach((item) => rewrite(item, base, ownKey));
    if (node === null || typeof node !== 'object') return;
    checkDeadline();
    const object = node as Record<string, unknown>;
    for (const [name, value] of Object.entries(object)) {
      // An extension is its tool's: a `$ref` in it (Redocly's x-topics naming a Markdown file) is
      // neither read nor rewritten, and never fails the load.
      if (name.startsWith('x-')) continue;
      // Examples are data: a `$ref` key inside one is not a reference.
      if (name === 'example' || name === 'examples' || name === 'const' || name === 'enum' || name === 'default') {
        if (name === 'examples' && value && typeof value === 'object' && !Array.isArray(value)) {
          for (const example of Object.values(value))
            if (example && typeof example === 'object' && '$ref' in example) rewrite(example, base, ownKey);
        }
        continue;
      }
      if (name === '$ref' && typeof value === 'string') {
        if (value.startsWith('#')) {
          if (ownKey !== undefined) object['$ref'] = `#/${BUNDLED}/${ownKey}${value.slice(1)}`;
        } else {
          const target = new URL(value, base);
          const key = target.href.replace(/#.*$/, '') === rootUrl.href ? undefined : keyOf(target);
          const pointer = value.includes('#') ? value.slice(value.indexOf('#') + 1) : '';
          object['$ref'] = key === undefined ? `#${pointer}` : `#/${BUNDLED}/${key}${pointer}`;
        }
        continue;
      }
      rewrite(value, base, ownKey);
    }
  };

  while (pending.length) {
    const { node, base, key } = pending.shift()!;
    if (key === undefined) {
      rewrite(node, base, undefined);
      continue;
    }
    const document = parseText(await readText(base), base.href);
    rewrite(document, base, key);
    bundled[key] = document;
  }
  if (keys.size) (root as unknown as Record<string, unknown>)[BUNDLED] = bundled;
  return finish(root);
}
