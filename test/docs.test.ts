import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isExampleFile } from '../scripts/example-manifest.js';

/**
 * What the README and the pages of docs/ name must exist: the files and headings they point to,
 * the npm scripts they run, the environment variables they set. Prose cannot be type-checked, so
 * this reads it the way a newcomer follows it.
 */
const PAGES = ['README.md', ...readdirSync('docs').flatMap((file) => (file.endsWith('.md') ? [join('docs', file)] : []))];

/**
 * Paths the pages name that work in progress elsewhere adds. Remove an entry once the path exists
 * (a test below says when); until then, nothing at or under it is checked.
 */
const PENDING: Record<string, string> = {};

/**
 * Environment variables the pages may name besides the server's own (src/config.ts) and the
 * benchmark's (BENCH_*, read in bench/): each is read by a test helper, a tool or an example, which
 * a test below checks.
 */
const OTHER_VARIABLES: Record<string, string> = {
  TEST_DATABASE_URL: 'the PostgreSQL server the tests use instead of a throwaway one',
  TEST_BACKENDS: 'the storage backends the API suites run on',
  PETSTORE_API_KEY: "the contract tester's and the example's API key",
  CONTRACT_TEST_API_KEY: "the contract tester's API key (packages/contract-tester/src/http/credentials.ts builds the name)",
  PETSTORE_BASE_URL: "the example's server",
  PETSTORE_NODE_CACHE: 'where scripts/with-node.sh keeps the Node binaries and addons it fetches and builds',
};
/** Read by Node itself, so no source file names them. */
const NODE_VARIABLES = ['NODE_OPTIONS'];

interface Page {
  path: string;
  /** The lines outside fenced code blocks. */
  prose: string;
  /** Each fenced code block's text. */
  blocks: string[];
  /** Each inline code span of the prose. */
  spans: string[];
}

function readPage(path: string): Page {
  const prose: string[] = [];
  const blocks: string[][] = [];
  let block: string[] | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) {
      if (block) blocks.push(block);
      block = block ? undefined : [];
    } else (block ?? prose).push(line);
  }
  const text = prose.join('\n');
  return {
    path,
    prose: text,
    blocks: blocks.map((lines) => lines.join('\n')),
    spans: [...text.matchAll(/`([^`\n]+)`/g)].map(([, span]) => span!),
  };
}

const pages = PAGES.map(readPage);

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'results'].includes(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|mts|js|mjs|cjs|sh)$/.test(entry.name) ? [path] : [];
  });
}

/** The code a variable or a name could be read in (this file, which names them all, left out). */
const sources = ['src', 'scripts', 'bench', 'examples', 'test', 'packages']
  .flatMap(sourceFiles)
  .filter((file) => file !== relative('.', fileURLToPath(import.meta.url)))
  .map((file) => readFileSync(file, 'utf8'));

/** A pending path, a path under one, or a folder on the way to one. */
const pending = (path: string) =>
  Object.keys(PENDING).some((entry) => path === entry || path.startsWith(`${entry}/`) || entry.startsWith(`${path}/`));

// ---- Files --------------------------------------------------------------------------------------

/** Top-level names git ignores (build output, data): paths under them are made, not kept. */
const ignored = readFileSync('.gitignore', 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
  .filter((line) => line && !line.startsWith('#') && !/[/*?[]/.test(line));

/** A path names a file of the repository when it starts with one of its top-level entries. */
const roots = new Set([
  ...readdirSync('.').filter((name) => name !== '.git' && !ignored.includes(name)),
  ...Object.keys(PENDING).map((path) => path.split('/')[0]!),
]);

/** Words of code that look like repository paths: `src/config.ts`, `packages/client/`, `.ci/run`. */
function repoPaths(code: string): string[] {
  return code
    .split(/\s+/)
    .map((word) => word.replace(/^[("'[]+|[)"',;:.\]]+$/g, ''))
    .filter((word) => !/[<>{}*…$=@]|:\/\//.test(word) && roots.has(word.split('/')[0]!));
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchors(page: Page): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const [, heading] of page.prose.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    slugs.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return slugs;
}

function missingFiles(page: Page): string[] {
  const named = [...page.spans, ...page.blocks].flatMap(repoPaths);
  const linked = [...page.prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!.split('#')[0]!)
    .filter((target) => target && !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => normalize(join(dirname(page.path), target)));
  // The pet store example's files are named by the docs that describe it, and gone after npm run new-api.
  return [...new Set([...named, ...linked])].filter((path) => !pending(path) && !existsSync(path) && !isExampleFile(path));
}

function missingAnchors(page: Page): string[] {
  return [...page.prose.matchAll(/\]\(([^)\s]*)#([^)\s]+)\)/g)].flatMap(([, target, anchor]) => {
    const path = target ? normalize(join(dirname(page.path), target)) : page.path;
    if (!path.endsWith('.md') || pending(path) || !existsSync(path)) return [];
    return anchors(readPage(path)).has(anchor!) ? [] : [`${target}#${anchor}`];
  });
}

// ---- npm scripts --------------------------------------------------------------------------------

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
}

const rootScripts = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as Manifest).scripts ?? {});
const workspaces = new Map(
  (existsSync('packages') ? readdirSync('packages') : [])
    .map((dir) => join('packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => [dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest]),
);

/** `npm run X`, `npm run --silent X`, `npm run -w packages/client X`, `npm start`, `npm test`. */
function npmScripts(text: string): { script: string; workspace?: string }[] {
  return [...text.matchAll(/\bnpm\s+(run(?:-script)?|start|test|stop|restart)\b([^\n`]*)/g)].flatMap(([, command, rest]) => {
    if (command !== 'run' && command !== 'run-script') return [{ script: command! }];
    const words = rest!.trim().split(/\s+/);
    let workspace: string | undefined;
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (word === '-w' || word === '--workspace') workspace = words[++i];
      else if (word.startsWith('--workspace=')) workspace = word.slice('--workspace='.length);
      else if (word.startsWith('-')) continue;
      // The name runs to the first character no script name has, and never ends in a full stop or a colon.
      else return [{ script: /^[\w:.-]*/.exec(word)![0].replace(/[.:]+$/, ''), ...(workspace ? { workspace } : {}) }];
    }
    return [];
  });
}

function missingScripts(page: Page): string[] {
  const everywhere = [rootScripts, ...[...workspaces.values()].map((manifest) => Object.keys(manifest.scripts ?? {}))].flat();
  return npmScripts([page.prose, ...page.blocks].join('\n')).flatMap(({ script, workspace }) => {
    if (!workspace) return everywhere.includes(script) ? [] : [`npm run ${script}`];
    const dir = workspace.startsWith('packages/') ? workspace : [...workspaces].find(([, manifest]) => manifest.name === workspace)?.[0];
    if (dir && pending(dir) && !existsSync(dir)) return [];
    const scripts = Object.keys((dir && workspaces.get(dir)?.scripts) ?? {});
    return scripts.includes(script) ? [] : [`npm run -w ${workspace} ${script}`];
  });
}

// ---- Environment variables ----------------------------------------------------------------------

/** The server's settings: every name src/config.ts reads. */
const configVariables = [...readFileSync('src/config.ts', 'utf8').matchAll(/'([A-Z][A-Z0-9_]*)'/g)].map(([, name]) => name!);
/** The benchmark's settings, wherever bench/ reads them. */
const benchVariables = sourceFiles('bench').flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/\b(?:BENCH|COST)_[A-Z0-9_]+/g)].map(([name]) => name),
);
const knownVariables = new Set([...configVariables, ...benchVariables, ...Object.keys(OTHER_VARIABLES), ...NODE_VARIABLES]);

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const declared = (name: string) =>
  sources.some((text) => new RegExp(`\\b(?:const|let|var|enum|type|interface|class|function)\\s+${name}\\b`).test(text));

/** Names set (`NAME=…`, `export NAME=…`) or read (`$NAME`, `process.env.NAME`) in code. */
function variablesInCode(code: string): string[] {
  // A line that is only an assignment makes a shell variable of the example, not an environment one.
  const locals = [...code.matchAll(/^\s*([A-Z][A-Z0-9_]*)=(?:"[^"]*"|'[^']*'|\$\([^)]*\)|\S+)\s*(?:#.*)?$/gm)].map(([, name]) => name!);
  return [
    ...code.matchAll(/(?:^|[\s;&|(])([A-Z][A-Z0-9_]*)=/gm),
    ...code.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g),
    ...code.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g),
  ]
    .map(([, name]) => name!)
    .filter((name) => !locals.includes(name));
}

/** The first column of a table whose header is `Variable`: the configuration and benchmark tables. */
function variablesInTables(prose: string): string[] {
  const names: string[] = [];
  let inTable = false;
  for (const line of prose.split('\n')) {
    if (/^\|\s*Variable\s*\|/.test(line)) inTable = true;
    else if (!line.startsWith('|')) inTable = false;
    else if (inTable) {
      const name = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line)?.[1];
      if (name) names.push(name);
    }
  }
  return names;
}

function unknownVariables(page: Page): string[] {
  const named = [
    ...page.blocks.flatMap(variablesInCode),
    ...page.spans.flatMap(variablesInCode),
    ...page.spans.filter((span) => UPPER_SNAKE.test(span) && !declared(span)),
    ...variablesInTables(page.prose),
  ];
  return [...new Set(named)].filter((name) => !knownVariables.has(name));
}

// ---- The checks ---------------------------------------------------------------------------------

describe.each(pages)('$path', (page) => {
  it('names only files that exist', () => {
    expect(missingFiles(page), 'fix the path, or add it to PENDING if another branch is adding it').toEqual([]);
  });

  it('links only to headings that exist', () => {
    expect(missingAnchors(page)).toEqual([]);
  });

  it('runs only npm scripts that exist (the root package.json, or a package of packages/)', () => {
    expect(missingScripts(page)).toEqual([]);
  });

  it('names only environment variables something reads', () => {
    expect(unknownVariables(page), 'src/config.ts, bench/ or OTHER_VARIABLES must read it').toEqual([]);
  });
});

describe('the lists of exceptions', () => {
  it('lists as pending only paths that do not exist yet', () => {
    expect(
      Object.keys(PENDING).filter((path) => existsSync(path)),
      'it exists now: remove it from PENDING',
    ).toEqual([]);
  });

  it('lists only variables some source still reads', () => {
    expect(Object.keys(OTHER_VARIABLES).filter((name) => !sources.some((text) => text.includes(name)))).toEqual([]);
  });

  it('finds the settings of src/config.ts and bench/', () => {
    expect(configVariables).toContain('DATABASE_URL');
    expect(benchVariables).toContain('BENCH_PETS');
  });
});
