import fc from 'fast-check';
import { rethrowDeadline } from '../deadline.js';
import type { ApiModel, BodyKind, MediaModel, OperationModel, ParameterModel } from '../spec/model.js';
import { bodyOf, type RequestBody } from './bodies.js';
import {
  emptyMeansAbsent,
  emptyParts,
  encodeParameter,
  parameterText,
  setParameter,
  validBodies,
  validParameterValue,
  type RequestCredentials,
  type RequestParts,
} from './requests.js';
import { isValid } from './schema-validator.js';

/** One request of the examples or coverage phase: its parts, and what it is, in words. */
export interface FixedCase {
  parts: RequestParts;
  why: string;
  /** Whether the spec allows it: a valid request, or one that breaks it in one place. */
  valid: boolean;
  /** The rule an invalid one breaks, where that rule has a check of its own (MISSING_HEADER). */
  rule?: string;
  /** The value its body was made from. */
  bodyValue?: unknown;
  /** The path parameter whose value it tries, if it tries one (kept when the case goes to a resource made for it). */
  pathParameter?: string;
}

/** The same value for the same schema every time (none when it cannot be made): what a fixed case uses where the spec gives none. */
export function sampleOne<T>(arbitrary: fc.Arbitrary<T>): T | undefined {
  try {
    return fc.sample(arbitrary, { numRuns: 1, seed: 0 })[0];
  } catch (error) {
    rethrowDeadline(error);
    return undefined;
  }
}

/** A parameter's value in a fixed case: its first valid example, else its default, else a generated one. */
export function baseValue(parameter: ParameterModel): unknown {
  const candidates = [...parameter.examples, parameter.schema['default']].filter((value) => value !== undefined);
  return (
    candidates.find((value) => isValid(parameter.schema, value) && !emptyWhereNone(parameter, value)) ??
    sampleOne(validParameterValue(parameter))
  );
}

/** An empty value where an empty value is the parameter left out (emptyMeansAbsent). */
function emptyWhereNone(parameter: ParameterModel, value: unknown): boolean {
  return emptyMeansAbsent(parameter) && (Array.isArray(value) ? value.length === 0 : parameterText(value) === '');
}

type MakeableMedia = MediaModel & { kind: BodyKind };

/** The request a fixed case starts from: every required parameter, and a valid body (its first example, if valid). */
export function baseParts(
  api: ApiModel,
  operation: OperationModel,
  credentials: RequestCredentials,
): { parts: RequestParts; bodyValue?: unknown } {
  let parts = emptyParts(operation, api.basePath, credentials);
  for (const parameter of operation.parameters.filter(({ required }) => required)) {
    const value = baseValue(parameter);
    if (value !== undefined) parts = setParameter(parts, parameter, encodeParameter(parameter, value));
  }
  const media =
    operation.body?.media.find((candidate): candidate is MakeableMedia => candidate.kind === 'json') ??
    operation.body?.media.find((candidate): candidate is MakeableMedia => !!candidate.kind);
  if (!media || !operation.body) return { parts };
  const example = media.examples.find((value) => isValid(media.schema, value));
  if (example !== undefined) return { parts: { ...parts, body: bodyOf(media, example) }, bodyValue: example };
  const generated = sampleOne<RequestBody>(validBodies(operation)!);
  if (!generated) return { parts };
  return { parts: { ...parts, body: generated }, ...('value' in generated ? { bodyValue: generated.value } : {}) };
}

/**
 * The examples phase: every example the spec gives an operation's parameters and bodies, each sent
 * in a request that is otherwise the base one. An example that is not valid against its own schema
 * is not sent (it says nothing of the server): it comes back as a warning about the spec.
 */
export function exampleCases(
  api: ApiModel,
  operation: OperationModel,
  credentials: RequestCredentials,
  linkSupplied: ReadonlySet<string> = new Set(),
): { cases: FixedCase[]; warnings: string[] } {
  const cases: FixedCase[] = [];
  const warnings: string[] = [];
  const base = baseParts(api, operation, credentials);
  for (const media of operation.body?.media ?? []) {
    media.examples.forEach((example, index) => {
      if (!media.kind) return;
      if (!isValid(media.schema, example)) {
        warnings.push(`${operation.id}: example ${index + 1} of its ${media.mediaType} body is not valid against its schema; not sent`);
        return;
      }
      cases.push({
        parts: { ...base.parts, body: bodyOf(media as MakeableMedia, example) },
        why: `example ${index + 1} of the ${media.mediaType} body`,
        valid: true,
        bodyValue: example,
      });
    });
  }
  // An optional parameter only links supply (a cursor) has no value of its own to try.
  for (const parameter of operation.parameters.filter(({ name, required }) => required || !linkSupplied.has(name))) {
    parameter.examples.forEach((example, index) => {
      if (!isValid(parameter.schema, example)) {
        warnings.push(`${operation.id}: example ${index + 1} of parameter ${parameter.name} is not valid against its schema; not sent`);
        return;
      }
      if (emptyWhereNone(parameter, example)) {
        warnings.push(
          `${operation.id}: example ${index + 1} of parameter ${parameter.name} is empty, which the spec does not allow; not sent`,
        );
        return;
      }
      cases.push({
        parts: setParameter(base.parts, parameter, encodeParameter(parameter, example)),
        why: `example ${index + 1} of ${parameter.in} parameter ${parameter.name}: ${JSON.stringify(example)}`,
        valid: true,
        ...(parameter.in === 'path' ? { pathParameter: parameter.name } : {}),
        ...(base.bodyValue !== undefined ? { bodyValue: base.bodyValue } : {}),
      });
    });
  }
  return { cases, warnings };
}
