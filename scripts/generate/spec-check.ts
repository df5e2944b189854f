import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createConfig, getLineColLocation, lint, type NormalizedProblem } from '@redocly/openapi-core';
import { YAMLException } from 'js-yaml';
import { readContract } from '../../src/contract/read-contract.js';
import { parseSpec, type OpenApiDocument } from '../../src/contract/spec.js';

/** A spec that cannot be generated from or served: one line per problem, each `file:line:column: why` where known. */
export class SpecProblems extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'SpecProblems';
  }
}

/**
 * What generate needs of any document, whoever wrote it: well-formed OpenAPI, every $ref resolved,
 * and one unique operationId per operation (handlers are named by it), with its path parameters
 * declared. The house style of this project's own spec (redocly.yaml, .spectral.yaml) is
 * `npm run lint:spec`'s, not generate's: a foreign document with unused components or without
 * examples still generates.
 */
export const GENERATE_RULES = {
  struct: 'error',
  'no-unresolved-refs': 'error',
  'operation-operationId': 'error',
  'operation-operationId-unique': 'error',
  'operation-parameters-unique': 'error',
  'path-parameters-defined': 'error',
  'no-identical-paths': 'error',
} as const;

function redoclyProblem(root: string, problem: NormalizedProblem): string {
  const location = problem.location[0];
  if (!location) return `${problem.message} (${problem.ruleId})`;
  const { start } = getLineColLocation(location);
  return `${relative(root, location.source.absoluteRef)}:${start.line}:${start.col}: ${problem.message} (${problem.ruleId})`;
}

/**
 * Reads openapi.yaml as the server does (js-yaml, YAML 1.2 core schema) and checks it with the rules
 * generate needs (GENERATE_RULES, with Redocly) and the way the server does at start-up (src/contract/read-contract.ts). Throws
 * SpecProblems with the file and line of each problem Redocly or the YAML parser locates.
 */
export async function checkSpec(root: string, specPath: string): Promise<OpenApiDocument> {
  const file = relative(root, specPath);
  let document: OpenApiDocument;
  try {
    document = parseSpec(readFileSync(specPath, 'utf8'));
  } catch (error) {
    if (error instanceof YAMLException) {
      const where = error.mark ? `${file}:${error.mark.line + 1}:${error.mark.column + 1}` : file;
      throw new SpecProblems([`${where}: ${error.reason}`]);
    }
    throw new SpecProblems([`${file}: ${(error as Error).message}`]);
  }
  const config = await createConfig({ extends: [], rules: GENERATE_RULES });
  const errors = (await lint({ ref: specPath, config })).filter((problem) => problem.severity === 'error');
  if (errors.length > 0) throw new SpecProblems(errors.map((problem) => redoclyProblem(root, problem)));
  try {
    readContract(document);
  } catch (error) {
    throw new SpecProblems([(error as Error).message.replace(/^openapi\.yaml: /, `${file}: `)]);
  }
  return document;
}
