import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { EMPTY_PROFILE, type Profile } from '../profile.js';
import { checkDeadline, rethrowDeadline } from '../deadline.js';
import { subschemasOf } from '../generate/schema-graph.js';
import { jsonText, validatedView } from '../generate/json-text.js';
import { createAjv } from '../generate/schema-validator.js';
import {
  basePathOf,
  exactPathPattern,
  listOperations,
  pointerOfRef,
  resolveRefAt,
  unescapePointerToken,
  valueAtPointer,
  type OpenApiDocument,
  type OperationEntry,
  type SchemaObject,
} from '../spec/openapi.js';
import { documentFor, withoutIds } from '../spec/directions.js';
import { SpecError } from '../spec/model.js';
import { DOCUMENT_URI, refsAgainstDocument } from './id-bases.js';
import type { CheckName } from '../registry/checks.js';
import { RESPONSE_CHECKS } from './response-checks.js';
import { errorSchemaConformance } from './response/error-schema-conformance.js';
import type {
  CheckScope,
  DocumentedResponse,
  ObservedResponse,
  RequestIntent,
  ResponseContext,
  ResponseObject,
  Violation,
} from './response-check.js';
import { explainErrors } from './schema-errors.js';

// The checker's callers outside the package (the project's own contract tests) name what it reads here.
export type { ObservedResponse };

/** One thing wrong with an answer, and the check that says so. */
export interface Finding {
  check: CheckName;
  message: string;
  /**
   * What sets this finding apart from others of its check on the same operation and status (which
   * schema rule the body broke, and where), so that one does not hide another.
   */
  signature?: string;
}

/** Whether a document names schemas for `$ref`s to find (`$id`, `$anchor`), asking the deadline as it reads. */
function namesSchemas(document: unknown): boolean {
  const stack: unknown[] = [document];
  for (let read = 1; stack.length; read++) {
    if (read % 10_000 === 0) checkDeadline();
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (
      !Array.isArray(node) &&
      ['$id', '$anchor', '$dynamicAnchor'].some((key) => typeof (node as Record<string, unknown>)[key] === 'string')
    )
      return true;
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') stack.push(value);
  }
  return false;
}

/** Why the validator will not take the document's schemas, in the spec's words. */
function schemaRefusal(message: string): string {
  const id = /^reference "(.*)" resolves to more than one schema$/.exec(message)?.[1];
  if (id !== undefined)
    return `two of its schemas have the $id ${JSON.stringify(id)}, which must name one schema (JSON Schema 2020-12 §8.2.1): give each its own`;
  return `its schemas cannot be compiled: ${message}`;
}

/** The status of each error code, from a schema that is a oneOf of one `const` per code, its status in `x-http-status`. */
function readErrorCodes(document: OpenApiDocument, pointer: string): ReadonlyMap<string, number> {
  const variants = (valueAtPointer(document, pointer) as SchemaObject | undefined)?.['oneOf'];
  if (!Array.isArray(variants)) throw new Error(`the spec: ${pointer} must be a oneOf of consts (${errorSchemaConformance.name}.codes)`);
  const table = new Map<string, number>();
  for (const variant of variants as SchemaObject[]) {
    const code = variant['const'];
    const status = variant['x-http-status'];
    if (typeof code !== 'string' || !Number.isInteger(status) || (status as number) < 400 || (status as number) > 599) {
      throw new Error(`the spec: error code ${JSON.stringify(variant)} needs a string const and an x-http-status 4xx/5xx`);
    }
    table.set(code, status as number);
  }
  return table;
}

/** Whether a check reads a response, by where the spec has the response. */
function inScope(scope: CheckScope, { route, documented }: Pick<ResponseContext, 'route' | 'documented'>): boolean {
  if (scope === 'unrouted') return !route;
  if (scope === 'routed') return route !== undefined;
  if (scope === 'documented') return documented !== undefined;
  return true;
}

/**
 * Checks a response against the spec: the status is documented for the operation, the content
 * type is one documented for that status, the body is valid against its schema, documented headers
 * are valid and required ones present, and a 405 carries Allow. HEAD is checked as GET without a
 * body (RFC 9110 §9.3.2). Paths match the spec's templates exactly. With a profile, also its rules
 * on every response: required and forbidden headers, the one error schema, no undocumented body,
 * and what may answer a path the spec does not have.
 */
export class ContractChecker {
  private ajv: Ajv2020 = createAjv({ verbose: true, callRefs: true });
  private readonly basePath: string;
  private readonly profile: Profile;
  private readonly errorCodes: ReadonlyMap<string, number> | undefined;
  private readonly routes: Array<OperationEntry & { pattern: RegExp }>;
  /** The checker's copy of the document, and the `$ref`s whose schemas are compiled. */
  private readonly registered: OpenApiDocument;
  private readonly compiledRefs = new Set<string>();
  /** What of the copy Ajv holds: the parts compiled so far, grafted in; or the whole copy. */
  private held: Record<string, unknown>;
  /** What the checker could not read of the spec, and the checks that therefore pass over it. */
  readonly warnings: string[] = [];
  /** The schemas no validator could be made of, by pointer. */
  private readonly unreadable = new Set<string>();

  constructor(
    private readonly document: OpenApiDocument,
    options: { basePath?: string; profile?: Profile } = {},
  ) {
    this.basePath = options.basePath ?? basePathOf(document, { onDisagreement: 'none' });
    this.profile = options.profile ?? EMPTY_PROFILE;
    const codes = this.profile.errorSchema?.codes;
    this.errorCodes = codes ? readErrorCodes(document, codes) : undefined;
    // Responses leave out writeOnly properties, even required ones (they are the client's to send).
    let copy = documentFor('response', document);
    // Ajv walks all of a document it registers, in one call (a third of a second for GitHub's
    // 6 MB): it gets an empty one, and each part as a schema comes to need it. Only a document
    // that names schemas (`$id`, `$anchor`) is registered whole, for Ajv to find them by name.
    const named = namesSchemas(copy);
    if (named) this.warnings.push(...refsAgainstDocument(copy));
    this.held = named ? (copy as unknown as Record<string, unknown>) : {};
    try {
      this.register();
    } catch (error) {
      // `$id`s Ajv will not take (two schemas of one name): the document is read without them,
      // its `$ref`s against the document, as most OpenAPI tools read them.
      copy = withoutIds(copy) as OpenApiDocument;
      this.held = copy as unknown as Record<string, unknown>;
      this.ajv = createAjv({ verbose: true, callRefs: true });
      this.register();
      this.warnings.push(`${schemaRefusal((error as Error).message)}; the schemas are read without their $ids`);
    }
    this.registered = copy;
    this.routes = listOperations(document).map((entry) => ({ ...entry, pattern: exactPathPattern(entry.path) }));
  }

  private register(): void {
    // Not checked against the meta-schema: a document is no schema (the meta-schema reads none of
    // its keys), and that check's first use compiles the meta-schema, a tenth of a second or more
    // in one call. A schema that cannot be compiled is named when it is.
    this.ajv.addSchema(this.held, DOCUMENT_URI, undefined, false);
  }

  /**
   * The validator of the schema at a pointer. Compiling it compiles every schema it reaches by
   * `$ref`, in one call no deadline check could interrupt (seconds for an AWS finding's thousands):
   * so those are compiled first, each on its own and once for all the schemas that reach it, the
   * ones they reach before them, with a deadline check before each.
   */
  private validator(pointer: string): ValidateFunction {
    let validate: ValidateFunction | undefined;
    try {
      const refs = this.refsReached(pointer);
      for (const ref of refs) this.graft(pointerOfRef(ref));
      this.graft(pointer);
      for (const ref of refs) {
        checkDeadline();
        this.ajv.getSchema(`${DOCUMENT_URI}${ref}`);
        this.compiledRefs.add(ref);
      }
      checkDeadline();
      validate = this.ajv.getSchema(`${DOCUMENT_URI}#${pointer}`);
    } catch (error) {
      // Compiled when first needed: a schema no validator can compile (an `allOf` that is an object)
      // is named where it is.
      rethrowDeadline(error);
      throw new SpecError(`the schema at ${pointer}: ${schemaRefusal((error as Error).message)}`);
    }
    if (!validate) throw new SpecError(`the schema at ${pointer}: there is none`);
    return validate;
  }

  /** Puts the copy's value at a pointer into the document Ajv holds, at the same place (Ajv reads it there when it compiles). */
  private graft(pointer: string): void {
    if ((this.held as unknown) === this.registered) return;
    let real: unknown = this.registered;
    let held = this.held;
    const tokens = pointer.split('/').slice(1).map(unescapePointerToken);
    for (const [index, token] of tokens.entries()) {
      real = real !== null && typeof real === 'object' ? (real as Record<string, unknown>)[token] : undefined;
      if (real === null || typeof real !== 'object') return;
      if (held[token] === real) return;
      if (index === tokens.length - 1 || held[token] === undefined)
        held[token] = index === tokens.length - 1 ? real : Array.isArray(real) ? [] : {};
      held = held[token] as Record<string, unknown>;
    }
  }

  /** The local `$ref`s the schema at a pointer reaches, not yet compiled, each after those it reaches. */
  private refsReached(pointer: string): string[] {
    const order: string[] = [];
    const seen = new Set<string>();
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
      for (const [keyword, value] of Object.entries(node as Record<string, unknown>)) {
        // A `$ref` refsAgainstDocument pointed at the document is one of the document's.
        const ref: unknown = typeof value === 'string' && value.startsWith(`${DOCUMENT_URI}#`) ? value.slice(DOCUMENT_URI.length) : value;
        if (keyword === '$ref' && typeof ref === 'string' && ref.startsWith('#/')) {
          if (seen.has(ref) || this.compiledRefs.has(ref)) continue;
          seen.add(ref);
          visit(valueAtPointer(this.registered, pointerOfRef(ref)));
          order.push(ref);
        } else for (const child of subschemasOf(keyword, value)) visit(child);
      }
    };
    visit(valueAtPointer(this.registered, pointer));
    return order;
  }

  /**
   * The validator of a schema a check holds answers to, or, when none can be made of it, nothing:
   * a warning names the schema and the check that passes over it, and everything else is tested.
   */
  private validatorFor(check: CheckName, pointer: string): ValidateFunction | undefined {
    if (this.unreadable.has(pointer)) return undefined;
    try {
      return this.validator(pointer);
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      this.unreadable.add(pointer);
      this.warnings.push(`${error.message}; ${check} does not check the answers it describes`);
      return undefined;
    }
  }

  private schemaViolation(check: CheckName, pointer: string, value: unknown, what: string): Violation | undefined {
    const validate = this.validatorFor(check, pointer);
    if (!validate) return undefined;
    const judged = validatedView(value);
    if (validate(judged)) return undefined;
    const explained = explainErrors(this.ajv, validate.errors, judged);
    return {
      problem: `${what} breaks the contract (${pointer}): ${explained}\n${jsonText(value)}`,
      signature: `${pointer}: ${explained.replace(/\/\d+(?=[/ ])/g, '/*')}`,
    };
  }

  /** The operation a request reached by the spec, if any (HEAD reaches the GET operation). */
  route(method: string, url: string): OperationEntry | undefined {
    const path = new URL(url, 'http://x').pathname;
    if (path !== this.basePath && !path.startsWith(`${this.basePath}/`)) return undefined;
    const relative = path.slice(this.basePath.length);
    const wanted = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    return this.routes.find((route) => route.method === wanted && route.pattern.test(relative));
  }

  /** Everything wrong with a response, each with its check; empty when it keeps the contract. */
  findings(response: ObservedResponse, intent: RequestIntent = 'valid'): Finding[] {
    const where = `${response.method} ${response.url} → ${response.status}`;
    const route = this.route(response.method, response.url);
    const context: Omit<ResponseContext, 'schemaViolation'> = {
      response,
      where,
      head: response.method.toUpperCase() === 'HEAD',
      intent,
      document: this.document,
      profile: this.profile,
      errorCodes: this.errorCodes,
      route,
      documented: route && this.documentedResponse(route, response.status),
    };
    const found: Finding[] = [];
    for (const definition of RESPONSE_CHECKS) {
      const { name, scope } = definition;
      if (!inScope(scope, context)) continue;
      const schemaViolation = (pointer: string, value: unknown, what: string) => this.schemaViolation(name, pointer, value, what);
      for (const problem of definition.check({ ...context, schemaViolation })) {
        const text = typeof problem === 'string' ? problem : problem.problem;
        const message = text.startsWith(where) ? text : `${where}: ${text}`;
        found.push(typeof problem === 'string' ? { check: name, message } : { check: name, message, signature: problem.signature });
      }
    }
    return found;
  }

  /** The response the operation documents for a status, resolved, with its pointer; undefined when it documents none. */
  private documentedResponse(route: OperationEntry, status: number): DocumentedResponse | undefined {
    const responses = route.operation.responses ?? {};
    const code = String(status);
    const key = [code, `${code[0]}XX`, `${code[0]}xx`, 'default'].find((candidate) => candidate in responses);
    return key ? resolveRefAt(this.document, responses[key] as ResponseObject, `${route.pointer}/responses/${key}`) : undefined;
  }

  /** Everything wrong with a response, in words. */
  violations(response: ObservedResponse, intent?: RequestIntent): string[] {
    return this.findings(response, intent).map(({ message }) => message);
  }

  /** Throws, naming every violation, when the response breaks the contract. */
  check(response: ObservedResponse): void {
    const found = this.violations(response);
    if (found.length) throw new Error(found.join('\n'));
  }
}
