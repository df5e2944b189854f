import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { DOCUMENT_URI } from './id-bases.js';

/**
 * The errors of a failed validation in words, for a person, worded as Ajv's errorsText words them
 * (`data/path message`). Ajv lists every error of every branch of a `oneOf` or `anyOf` (and, beside
 * one, an unevaluated-property error for each property no branch took), which buries the one that
 * matters. Here a choice no branch satisfies is told as the branch that came closest, with its own
 * errors; errors that only follow from that failure are left out, and each message is given once.
 */
export function explainErrors(ajv: Ajv2020, errors: ErrorObject[] | null | undefined, value: unknown): string {
  return explain(ajv, errors ?? [], value, 0, '').join('; ');
}

interface Branch {
  index: number;
  name: string;
  errors: ErrorObject[];
}

/** The depth to which nested choices are explained (a recursive schema could go on). */
const MAX_DEPTH = 4;

const isChoice = ({ keyword }: ErrorObject) => keyword === 'oneOf' || keyword === 'anyOf';

/** `base`: where the validated value sits in the whole (a branch is validated on its own). */
function explain(ajv: Ajv2020, errors: ErrorObject[], value: unknown, depth: number, base: string): string[] {
  const choices = errors.filter(isChoice);
  const lines = choices.map((choice) => explainChoice(ajv, choice, value, depth, base));
  const choiceAt = new Set(choices.map(({ instancePath }) => instancePath));
  for (const error of errors) {
    if (isChoice(error) || choices.some((choice) => belongsTo(error, choice))) continue;
    // A property no branch of a failed choice evaluated: it follows from that failure.
    if ((error.keyword === 'unevaluatedProperties' || error.keyword === 'unevaluatedItems') && choiceAt.has(error.instancePath)) continue;
    lines.push(message(error, base));
  }
  return [...new Set(lines)];
}

function refOf(branch: unknown): string | undefined {
  const ref = branch !== null && typeof branch === 'object' ? (branch as Record<string, unknown>)['$ref'] : undefined;
  return typeof ref === 'string' ? ref : undefined;
}

/** Whether an error comes from a choice's branches: at or below its place in the value, and below its schema. */
function belongsTo(error: ErrorObject, choice: ErrorObject): boolean {
  const inside = error.instancePath === choice.instancePath || error.instancePath.startsWith(`${choice.instancePath}/`);
  if (!inside) return false;
  // An inline branch's errors are below the choice's schema path; those of a branch reached by
  // `$ref`, below the target's.
  const refs = Array.isArray(choice.schema) ? choice.schema.map(refOf).filter((ref) => ref !== undefined) : [];
  return error.schemaPath.startsWith(`${choice.schemaPath}/`) || refs.some((ref) => error.schemaPath.startsWith(`${ref}/`));
}

function message(error: ErrorObject, base: string): string {
  const params = error.params as Record<string, unknown>;
  const allowed = params['allowedValues'] ?? params['allowedValue'];
  const extra = params['additionalProperty'] ?? params['unevaluatedProperty'];
  return [
    `data${base}${error.instancePath} ${error.message ?? error.keyword}`,
    allowed !== undefined ? ` ${JSON.stringify(allowed)}` : '',
    extra !== undefined ? ` (${typeof extra === 'string' ? extra : JSON.stringify(extra)})` : '',
  ].join('');
}

function valueAt(value: unknown, instancePath: string): unknown {
  let current = value;
  for (const token of instancePath.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/** A copy of a schema whose local `$ref`s name the document the checker added (DOCUMENT_URI). */
function anchored(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anchored);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(node)) {
    copy[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith('#') ? `${DOCUMENT_URI}${inner}` : anchored(inner);
  }
  return copy;
}

const compiled = new WeakMap<object, ReturnType<Ajv2020['compile']>>();

/** A branch of a choice validated on its own. */
function branchValidator(ajv: Ajv2020, branch: object): ReturnType<Ajv2020['compile']> {
  let validate = compiled.get(branch);
  if (!validate) {
    validate = ajv.compile(anchored(branch) as object);
    compiled.set(branch, validate);
  }
  return validate;
}

function branchName(branch: unknown, index: number): string {
  const ref = refOf(branch);
  const title = branch !== null && typeof branch === 'object' ? (branch as Record<string, unknown>)['title'] : undefined;
  const name = ref ? ref.slice(ref.lastIndexOf('/') + 1) : typeof title === 'string' ? title : undefined;
  return name ? `branch ${index} (${name})` : `branch ${index}`;
}

/** How far a branch is from taking the value: a failed const or type (a discriminator, most often) counts first. */
function distance(branch: Branch): [number, number] {
  const mismatches = branch.errors.filter(({ keyword }) => keyword === 'const' || keyword === 'type').length;
  return [mismatches, branch.errors.length];
}

function explainChoice(ajv: Ajv2020, choice: ErrorObject, value: unknown, depth: number, base: string): string {
  const where = `data${base}${choice.instancePath}`;
  const branches: unknown = choice.schema;
  const passing = (choice.params as { passingSchemas?: number[] | null }).passingSchemas;
  if (!Array.isArray(branches)) return `${where} ${choice.message ?? choice.keyword}`;
  if (Array.isArray(passing)) {
    const names = passing.map((index) => branchName(branches[index], index)).join(' and ');
    return `${where} matches ${names} of the oneOf, where exactly one may match`;
  }
  const at = valueAt(value, choice.instancePath);
  const tried = branches.flatMap((branch: unknown, index): Branch[] => {
    if (branch === null || typeof branch !== 'object') return [];
    const validate = branchValidator(ajv, branch);
    const errors = validate(at) === true ? [] : (validate.errors ?? []);
    return [{ index, name: branchName(branch, index), errors }];
  });
  if (!tried.length) return `${where} ${choice.message ?? choice.keyword}`;
  const closest = tried.reduce((best, next) => {
    const [a, b] = [distance(best), distance(next)];
    return b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? next : best;
  });
  const reasons = depth < MAX_DEPTH ? explain(ajv, closest.errors, at, depth + 1, `${base}${choice.instancePath}`) : [];
  return `${where} matches no branch of the ${choice.keyword}; the closest is ${closest.name}: ${reasons.join('; ')}`;
}
