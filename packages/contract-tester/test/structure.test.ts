import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

/**
 * The package's layers, lowest first: a module may import from its own layer or one below, never
 * from one above, and no import may go round in a circle. A module's layer is that of the longest
 * folder or file named here that holds it. The shared OpenAPI reader outside src/ is below them all.
 * The checks: each defined in a module of its own (checks/response/, checks/case/ by what they read,
 * stateful/checks/ for a sequence's), on the kits beneath them; the registry is assembled from the
 * definitions; what runs them (the response contract, a case's expectations, a session, a sequence)
 * reads the registry from above it. generate/ makes requests and knows no check.
 */
const LAYERS: ReadonlyArray<readonly string[]> = [
  ['deadline.ts'],
  ['spec'],
  ['generate', 'http', 'profile.ts', 'settings.ts'],
  // What checks are defined with: the definition, what a response or a case's answer offers them, and helpers.
  [
    'checks/define.ts',
    'checks/response-check.ts',
    'checks/case-answer.ts',
    'checks/media-types.ts',
    'checks/id-bases.ts',
    'checks/schema-errors.ts',
  ],
  ['checks/response', 'checks/case'],
  // What a sequence knows of the resources it makes and the links it follows.
  ['stateful/links.ts', 'stateful/resources.ts', 'stateful/inferred-links.ts'],
  ['stateful/checks'],
  ['registry'],
  ['checks', 'config.ts'],
  ['stateful'],
  ['run'],
  ['report'],
  ['cli.ts'],
];

/** Lines of one function, from its head to its closing brace, above which it should be split. */
const MAX_FUNCTION_LINES = 80;

function modules(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(module: string): number {
  const path = relative(SRC, module);
  let layer = -1;
  let longest = 0;
  LAYERS.forEach((names, index) => {
    for (const name of names)
      if ((path === name || path.startsWith(`${name}/`)) && name.length > longest) [layer, longest] = [index, name.length];
  });
  if (layer < 0) throw new Error(`${path}: its folder is in no layer; add it to LAYERS`);
  return layer;
}

/** The package's own modules a module imports (type-only imports too: they tie the design as much). */
function importsOf(module: string): string[] {
  const text = readFileSync(module, 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom '(\.{1,2}\/[^']+)'/gms)]
    .map((match) => resolve(dirname(module), match[1]!.replace(/\.js$/, '.ts')))
    .filter((path) => path.startsWith(SRC + '/'));
}

const ALL = modules(SRC);
const GRAPH = new Map(ALL.map((module) => [module, importsOf(module)]));

/** Every cycle's modules, found by depth-first search (each cycle once, as the path that closes it). */
function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (module: string, path: string[]): void => {
    state.set(module, 'open');
    for (const next of GRAPH.get(module) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].map((m) => relative(SRC, m)));
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(module, 'done');
  };
  for (const module of ALL) if (!state.has(module)) visit(module, [module]);
  return found;
}

/**
 * Each function's length in lines: a `function` declaration, a method or an arrow function assigned
 * to a name, from its head to the brace that closes its body (braces counted outside strings,
 * template literals and comments, which is enough for this code base's Prettier-formatted source).
 */
function functionLengths(module: string): Array<{ name: string; lines: number }> {
  const lines = readFileSync(module, 'utf8').split('\n');
  const head =
    /^\s*(?:export\s+)?(?:async\s+)?function\*?\s+(\w+)|^\s*(?:export\s+)?(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\([^)]*\)?|^\s{2}(?:(?:private|public|protected|static|async|readonly)\s+)*\*?(\w+)\s*\(/;
  const lengths: Array<{ name: string; lines: number }> = [];
  for (let start = 0; start < lines.length; start += 1) {
    const match = head.exec(lines[start]!);
    const name = match?.[1] ?? match?.[2] ?? match?.[3];
    if (!name || ['if', 'for', 'while', 'switch', 'catch', 'return'].includes(name)) continue;
    const end = closingLine(lines, start);
    if (end !== undefined) lengths.push({ name, lines: end - start + 1 });
  }
  return lengths;
}

/** The line whose brace closes the first brace opened at or after `start`, or undefined. */
function closingLine(lines: string[], start: number): number | undefined {
  let depth = 0;
  let opened = false;
  for (let index = start; index < lines.length; index += 1) {
    const code = lines[index]!.replace(/\/\/.*$/, '').replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '');
    for (const char of code) {
      if (char === '{') {
        depth += 1;
        opened = true;
      } else if (char === '}') depth -= 1;
      if (opened && depth === 0) return index;
    }
    // A statement that ends before any brace opens (a type alias, a one-line arrow) is no body.
    if (!opened && /;\s*$/.test(code)) return undefined;
  }
  return undefined;
}

describe("the package's structure", () => {
  it('finds every module a layer', () => {
    expect(ALL.length).toBeGreaterThan(20);
    for (const module of ALL) expect(() => layerOf(module)).not.toThrow();
  });

  it('imports only from its own layer or below', () => {
    const upward = [...GRAPH].flatMap(([module, imports]) =>
      imports.filter((target) => layerOf(target) > layerOf(module)).map((target) => `${relative(SRC, module)} -> ${relative(SRC, target)}`),
    );
    expect(upward, 'move the shared piece down to the lower layer').toEqual([]);
  });

  it('places a module by the longest folder or file that holds it', () => {
    expect(layerOf(join(SRC, 'checks', 'response', 'head-as-get.ts'))).toBeLessThan(layerOf(join(SRC, 'registry', 'checks.ts')));
    expect(layerOf(join(SRC, 'checks', 'expectations.ts'))).toBeGreaterThan(layerOf(join(SRC, 'registry', 'checks.ts')));
    expect(layerOf(join(SRC, 'stateful', 'checks', 'read-back.ts'))).toBeLessThan(layerOf(join(SRC, 'stateful', 'sequences.ts')));
    expect(layerOf(join(SRC, 'generate', 'coverage.ts'))).toBeLessThan(layerOf(join(SRC, 'checks', 'define.ts')));
  });

  it('has no import cycle', () => {
    expect(cycles()).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = ALL.flatMap((module) =>
      functionLengths(module)
        .filter(({ lines }) => lines > MAX_FUNCTION_LINES)
        .map(({ name, lines }) => `${relative(SRC, module)}: ${name} (${lines} lines)`),
    );
    expect(long, 'split it into functions of one job each').toEqual([]);
  });

  it('measures functions as their head to their closing brace', () => {
    const lengths = functionLengths(join(SRC, 'run', 'scenarios.ts'));
    expect(lengths.find(({ name }) => name === 'planScenarios')?.lines).toBeGreaterThan(5);
    expect(lengths.find(({ name }) => name === 'planScenarios')?.lines).toBeLessThan(20);
  });
});
