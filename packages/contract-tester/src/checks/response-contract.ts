import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { EMPTY_PROFILE, type Profile } from '../config.js';
import { checkDeadline, rethrowDeadline } from '../deadline.js';
import { subschemasOf } from '../generate/schema-graph.js';
import { jsonText, parseExactJson, validatedView } from '../generate/json-text.js';
import { createAjv } from '../generate/schema-validator.js';
import {
  basePathOf,
  isJsonMediaType,
  escapePointerToken,
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
import { explainErrors } from './schema-errors.js';

/** What the checker sees of a response, whoever sent the request (the tester, supertest, fetch). */
export interface ObservedResponse {
  method: string;
  /** Path and query as requested. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

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

/** A schema violation in words, and its signature: the same words with array indexes left out. */
interface Violation {
  problem: string;
  signature: string;
}

/** Records a problem (none when undefined) as a finding of a check. */
type AddFinding = (check: CheckName, problem: string | Violation | undefined) => void;

/**
 * What the request was, where it changes what the spec allows: a request without valid credentials
 * may get 401 or 403 although the operation documents neither (HTTP's own answers to it), and an
 * invalid request any 4xx when the operation documents no client error at all.
 */
export type RequestIntent = 'valid' | 'invalid' | 'unauthenticated';

interface HeaderObject {
  required?: boolean;
  schema?: SchemaObject;
}

interface ResponseObject {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
}

/** The response an operation documents for a status, resolved, and where the spec has it. */
interface DocumentedResponse {
  value: ResponseObject;
  pointer: string;
}

const mediaTypeOf = (contentType: unknown) =>
  typeof contentType === 'string' ? contentType.split(';')[0]!.trim().toLowerCase() : undefined;

/** Whether a Content-Type header is a well-formed media type (RFC 9110 §8.3.1). */
function wellFormedMediaType(contentType: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*(;.*)?$/.test(contentType.trim());
}

/** Whether a documented media type (maybe a range: `image/*`, `*\/*`) covers an actual one. */
export function covers(documented: string, actual: string): boolean {
  const [type, subtype] = documented.split(';')[0]!.trim().toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
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
  if (!Array.isArray(variants)) throw new Error(`the spec: ${pointer} must be a oneOf of consts (error_schema_conformance.codes)`);
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

/**
 * A header's text as the value its schema describes (Schemathesis does the same): a number or a
 * boolean read as one, a list split at commas; anything else stays text.
 */
export function coerceHeader(text: string, schema: SchemaObject | undefined): unknown {
  const type = schema?.['type'];
  const types = Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
  const number = text.trim();
  // A JSON number's text is read exactly (an int64 past 2^53 too); a looser one (`01`) as Number reads it.
  if ((types.includes('integer') || types.includes('number')) && /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(number))
    return parseExactJson(number);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(number)) return Number(text);
  if (types.includes('boolean') && /^(true|false)$/.test(text.trim())) return text.trim() === 'true';
  if (types.includes('array')) return text.split(',').map((item) => item.trim());
  return text;
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
    const found: Finding[] = [];
    const add: AddFinding = (check, problem) => {
      if (!problem) return;
      const text = typeof problem === 'string' ? problem : problem.problem;
      const message = text.startsWith(where) ? text : `${where}: ${text}`;
      found.push(typeof problem === 'string' ? { check, message } : { check, message, signature: problem.signature });
    };
    const { headers, status } = response;
    const head = response.method.toUpperCase() === 'HEAD';
    if (status === 405 && headers['allow'] === undefined) add('unsupported_method', 'a 405 must carry Allow (RFC 9110 §15.5.6)');
    if (head && response.text) add('head_as_get', 'a response to HEAD must not have a body (RFC 9110 §9.3.2)');
    this.profileFindings(response, where, add);

    const route = this.route(response.method, response.url);
    if (!route) {
      this.unroutedFindings(response, add);
      return found;
    }
    const documented = this.documentedResponse(route, response.status, intent, add);
    if (!documented) return found;
    this.headerFindings(documented, response, where, add);
    if (!head) this.bodyFindings(documented, response, where, add);
    return found;
  }

  /** exact_paths on a request no operation of the spec takes. */
  private unroutedFindings(response: ObservedResponse, add: AddFinding): void {
    if (!this.profile.checks.has('exact_paths')) return;
    const { status } = response;
    const head = response.method.toUpperCase() === 'HEAD';
    // No operation: only errors may come back (and no 5xx, which no operation documents here),
    // but for the public routes the profile names.
    const path = new URL(response.url, 'http://x').pathname;
    const isPublic = (response.method === 'GET' || head) && this.profile.publicPaths.some((pattern) => pattern.test(path));
    if (status < 400 && !isPublic) add('exact_paths', 'success from a path and method the spec does not have');
    if (status >= 500 && !isPublic && !this.profile.anyRequestStatuses.includes(status)) {
      add('exact_paths', `status ${status} for a path and method the spec does not have`);
    }
  }

  /**
   * The response the operation documents for a status, resolved, with its pointer; undefined, and a
   * finding unless the request's intent excuses it, when the operation documents none.
   */
  private documentedResponse(
    route: OperationEntry,
    status: number,
    intent: RequestIntent,
    add: AddFinding,
  ): DocumentedResponse | undefined {
    const responses = route.operation.responses ?? {};
    const code = String(status);
    const key = [code, `${code[0]}XX`, `${code[0]}xx`, 'default'].find((candidate) => candidate in responses);
    if (key) return resolveRefAt(this.document, responses[key] as ResponseObject, `${route.pointer}/responses/${key}`);
    const documentsClientErrors = Object.keys(responses).some((documented) => /^4|^default$/i.test(documented));
    const excused =
      (intent === 'unauthenticated' && (status === 401 || status === 403)) ||
      (intent !== 'valid' && status >= 400 && status < 500 && !documentsClientErrors);
    if (!excused) {
      add(
        'status_code_conformance',
        `status ${status} is not documented for ${route.id} (documented: ${Object.keys(responses).join(', ')})`,
      );
    }
    return undefined;
  }

  /** The documented headers: present when required, valid against their schemas. */
  private headerFindings(documented: DocumentedResponse, response: ObservedResponse, where: string, add: AddFinding): void {
    for (const [name, raw] of Object.entries(documented.value.headers ?? {})) {
      // Content-Type is described by content, not headers (OpenAPI: such a header is ignored).
      if (name.toLowerCase() === 'content-type') continue;
      const { value: header, pointer: headerPointer } = resolveRefAt(
        this.document,
        raw as HeaderObject,
        `${documented.pointer}/headers/${escapePointerToken(name)}`,
      );
      const actual = response.headers[name.toLowerCase()];
      if (actual === undefined) {
        if (header.required) add('response_headers_conformance', `required header ${name} is missing`);
        continue;
      }
      if (header.schema) {
        const text = Array.isArray(actual) ? actual.join(', ') : actual;
        add(
          'response_headers_conformance',
          this.schemaViolation(
            'response_headers_conformance',
            `${headerPointer}/schema`,
            coerceHeader(text, header.schema),
            `${where} header ${name}`,
          ),
        );
      }
    }
  }

  /** The body: of a documented content type, valid against its schema; or none, where none is documented. */
  private bodyFindings(documented: DocumentedResponse, response: ObservedResponse, where: string, add: AddFinding): void {
    const content = documented.value.content ?? {};
    const mediaTypes = Object.keys(content);
    if (!mediaTypes.length) {
      if (response.text && this.profile.checks.has('no_undocumented_body')) {
        add('no_undocumented_body', 'the spec documents no body, but one was sent');
      }
      return;
    }
    const contentType = response.headers['content-type'];
    if (typeof contentType !== 'string') {
      // No body, no type: an empty answer where a body is described is the schema's to judge.
      if (response.text) add('content_type_conformance', `no Content-Type, but one of ${mediaTypes.join(', ')} is documented`);
      return;
    }
    if (!wellFormedMediaType(contentType)) {
      add('content_type_conformance', `Content-Type ${contentType} is not a media type`);
      return;
    }
    const actual = mediaTypeOf(contentType)!;
    const mediaType =
      mediaTypes.find((type) => type.split(';')[0]!.trim().toLowerCase() === actual) ?? mediaTypes.find((type) => covers(type, actual));
    if (!mediaType) {
      add('content_type_conformance', `Content-Type ${contentType} is not one documented (${mediaTypes.join(', ')})`);
      return;
    }
    const schema = content[mediaType]!.schema;
    if (schema === undefined) return;
    const schemaPointer = `${documented.pointer}/content/${escapePointerToken(mediaType)}/schema`;
    if (isJsonMediaType(actual)) {
      if (response.body === undefined) add('response_schema_conformance', response.text ? 'the body is not JSON' : 'the body is empty');
      else
        add(
          'response_schema_conformance',
          this.schemaViolation('response_schema_conformance', schemaPointer, response.body, `${where} body`),
        );
    } else if (actual.startsWith('text/') && (resolveRefAt(this.document, schema).value as SchemaObject)['type'] === 'string') {
      add(
        'response_schema_conformance',
        this.schemaViolation('response_schema_conformance', schemaPointer, response.text, `${where} body`),
      );
    }
  }

  /** The profile's rules on every response, operation or not. */
  private profileFindings(response: ObservedResponse, where: string, add: AddFinding): void {
    const { headers, status } = response;
    const head = response.method.toUpperCase() === 'HEAD';
    for (const name of this.profile.forbiddenHeaders) {
      if (headers[name] !== undefined) add('forbidden_response_headers', `${name} must not be sent`);
    }
    for (const [name, value] of Object.entries(this.profile.requiredHeaders)) {
      if (headers[name] !== value) add('required_response_headers', `${name}: ${value} is missing (got ${JSON.stringify(headers[name])})`);
    }
    const rule = this.profile.errorSchema;
    if (!rule || status < 400 || head) return;
    if (mediaTypeOf(headers['content-type']) !== rule.mediaType) {
      add('error_schema_conformance', `an error must be ${rule.mediaType}`);
      return;
    }
    add('error_schema_conformance', this.schemaViolation('error_schema_conformance', rule.schema, response.body, `${where} error body`));
    const body = response.body as Record<string, unknown> | undefined;
    const stated = rule.statusProperty === undefined ? undefined : body?.[rule.statusProperty];
    if (stated !== undefined && stated !== status)
      add('error_schema_conformance', `${rule.statusProperty} ${JSON.stringify(stated)} differs from the HTTP status`);
    const code = rule.codeProperty === undefined ? undefined : body?.[rule.codeProperty];
    if (typeof code === 'string' && this.errorCodes && this.errorCodes.get(code) !== status) {
      add('error_schema_conformance', `the spec gives code ${code} another status`);
    }
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
