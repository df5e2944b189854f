import type { Request, RequestHandler } from 'express';
import type { Contract } from '../../contract/contract.js';
import { parametersOf, resolveRef } from '../../contract/spec.js';
import { apiError } from '../../errors/api-error.js';
import { textProblem } from '../strict-json.js';

type Location = 'path' | 'query' | 'header';

interface Parameter {
  in: Location;
  name: string;
  /** Its key in req.headers (lower case), for a header; else its name. */
  key: string;
  integer: boolean;
  /** How messages name it, as the validator's do (`query.limit`). */
  field: string;
}

/** The canonical decimal form of an integer: digits, a `-` for negatives, no leading zeros. */
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/** Where the validator's messages say a parameter is. */
const PREFIX: Record<Location, string> = { path: 'path', query: 'query', header: 'headers' };

/** Each operation's path, query and header parameters, and which of them are integers, from the spec. */
function parametersByOperation({ document, operations }: Contract): Map<string, Parameter[]> {
  const table = new Map<string, Parameter[]>();
  for (const { operation } of operations) {
    const parameters = parametersOf(document, operation)
      .filter((parameter) => parameter.in === 'path' || parameter.in === 'query' || parameter.in === 'header')
      .map((parameter) => ({
        in: parameter.in as Location,
        name: parameter.name,
        key: parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name,
        integer: resolveRef(document, parameter.schema ?? {})['type'] === 'integer',
        field: `${PREFIX[parameter.in as Location]}.${parameter.name}`,
      }));
    table.set(operation.operationId, parameters);
  }
  return table;
}

function valueOf(req: Request, { in: where, name, key }: Parameter): unknown {
  if (where === 'path') return req.openapi?.pathParams?.[name];
  if (where === 'query') return (req.query as Record<string, unknown>)[name];
  return req.headers[key];
}

/** Every key and value of the raw query string, percent-decoded strictly (UTF-8, no stray `%`). */
function* rawQuery(url: string): Generator<[string, string]> {
  const start = url.indexOf('?');
  if (start === -1) return;
  for (const pair of url.slice(start + 1).split('&')) {
    if (pair === '') continue;
    const split = pair.indexOf('=');
    const [key, value] = split === -1 ? [pair, ''] : [pair.slice(0, split), pair.slice(split + 1)];
    yield [decodeURIComponent(key.replace(/\+/g, ' ')), decodeURIComponent(value.replace(/\+/g, ' '))];
  }
}

/** One value of a parameter: text, and, for an integer, canonical decimal. */
function checkValue(parameter: Parameter, value: string, problems: string[]): void {
  const problem = textProblem(value);
  if (problem) problems.push(`${parameter.field} ${problem}`);
  // An empty value is the validator's to report, in its own words.
  else if (parameter.integer && value !== '' && !CANONICAL_INTEGER.test(value)) problems.push(`${parameter.field} must be integer`);
}

/** Every key and value of the raw query must decode as UTF-8 and be text. */
function checkRawQuery(url: string, problems: string[]): void {
  try {
    for (const [key, value] of rawQuery(url)) {
      const problem = textProblem(key) ?? textProblem(value);
      if (problem) problems.push(`query.${key.replaceAll('\u0000', '\\u0000')} ${problem}`);
    }
  } catch {
    fail(['the URL is not valid percent-encoding']);
  }
}

function fail(problems: string[]): never {
  throw apiError('validation_failed', { problems });
}

/**
 * What express-openapi-validator lets through in parameters, closed for every parameter the spec
 * declares, without code per parameter. It reads integers with Number semantics, so `0x1`, ` 1`,
 * `1e0` and `Infinity` pass as numbers: `beforeValidation` (between the validator's routing step and
 * its checks) accepts integers only in canonical decimal, refuses query strings that are not
 * well-formed percent-encoded UTF-8, and refuses NUL and unpaired surrogates in any parameter.
 * `afterValidation` refuses an integer the validator read that is not a safe integer, for
 * parameters whose schema does not bound them.
 */
export function strictParameters(contract: Contract): { beforeValidation: RequestHandler; afterValidation: RequestHandler } {
  const byOperation = parametersByOperation(contract);
  const parametersFor = (req: Request) => byOperation.get(req.openapi?.schema?.operationId ?? '') ?? [];
  return {
    beforeValidation: (req, _res, next) => {
      // Requests for no operation (the probes, the published spec) are not the spec's to judge.
      if (!req.openapi?.schema) return next();
      const problems: string[] = [];
      // Without a `%`, a query is plain text: nothing in it can be malformed, NUL or a surrogate.
      const query = req.originalUrl.indexOf('?');
      if (query !== -1 && req.originalUrl.includes('%', query)) {
        checkRawQuery(req.originalUrl, problems);
      }
      for (const parameter of parametersFor(req)) {
        const value = valueOf(req, parameter);
        if (typeof value === 'string') checkValue(parameter, value, problems);
        else if (Array.isArray(value)) {
          for (const item of value) if (typeof item === 'string') checkValue(parameter, item, problems);
          if (parameter.integer) problems.push(`${parameter.field} must be integer`);
        }
      }
      if (problems.length) fail(problems);
      next();
    },
    afterValidation: (req, _res, next) => {
      const problems: string[] = [];
      for (const parameter of parametersFor(req)) {
        const value = parameter.integer ? valueOf(req, parameter) : undefined;
        if (typeof value === 'number' && !Number.isSafeInteger(value)) {
          problems.push(`${parameter.field} must be an integer from -9007199254740991 to 9007199254740991`);
        }
      }
      if (problems.length) fail(problems);
      next();
    },
  };
}
