// Reading a V8 .cpuprofile (node --cpu-prof): self time per function and per owner (a package, a
// source file of ours, node core, or the engine), with bundle positions in dist/ turned back into
// their source files. Shared by bench/profile.mjs and bench/profile-diff.mjs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bundles in dist/ say where each piece came from: esbuild opens every input file's code with a
 * `// path/of/the/file.js` line. Those markers turn a bundle position back into a source file.
 */
const bundleIndex = new Map();
function sourceFileAt(url, lineNumber) {
  if (!url.startsWith('file://') || !url.includes('/dist/')) return undefined;
  let markers = bundleIndex.get(url);
  if (!markers) {
    markers = [];
    readFileSync(fileURLToPath(url), 'utf8')
      .split('\n')
      .forEach((line, index) => /^\/\/ ((?:node_modules|src)\/\S+)$/.test(line) && markers.push([index, line.slice(3)]));
    bundleIndex.set(url, markers);
  }
  let found;
  for (const [line, file] of markers) {
    if (line > lineNumber) break;
    found = file;
  }
  return found;
}

/** Where a frame's code lives: a source path relative to the checkout, or its URL. */
function sourceOf(url, lineNumber) {
  const source = sourceFileAt(url, lineNumber) ?? url.replace(/^file:\/\/.*?\/(src|node_modules|bench)\//, '$1/');
  return source.replace(`file://${root}`, '');
}

function owner(url, lineNumber) {
  if (!url) return '(native, gc, idle)';
  const source = sourceOf(url, lineNumber);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node core';
  return source;
}

const ENGINE = new Set(['(garbage collector)', '(idle)', '(program)']);

/**
 * Self time in µs per function (`name source`) and per owner, and the total, of one profile; idle
 * time is left out of both totals' meaning but kept under '(idle)'.
 */
export function readProfile(file) {
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(file, 'utf8'));
  const selfTime = new Map();
  samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (timeDeltas[i] ?? 0)));
  const byOwner = new Map();
  const byFunction = new Map();
  let total = 0;
  for (const node of nodes) {
    const time = selfTime.get(node.id) ?? 0;
    if (!time) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const who = ENGINE.has(functionName) ? functionName : owner(url, lineNumber);
    byOwner.set(who, (byOwner.get(who) ?? 0) + time);
    const key = `${functionName || '(anonymous)'} ${url ? sourceOf(url, lineNumber) : who}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
    if (functionName !== '(idle)') total += time;
  }
  return { byOwner, byFunction, total };
}
