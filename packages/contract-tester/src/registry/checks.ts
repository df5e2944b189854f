import { allowHeaderConformance } from '../checks/case/allow-header-conformance.js';
import { authFirst } from '../checks/case/auth-first.js';
import { canonicalNumbers } from '../checks/case/canonical-numbers.js';
import { ignoredAuth } from '../checks/case/ignored-auth.js';
import { maxResponseTime } from '../checks/case/max-response-time.js';
import { missingRequiredHeader } from '../checks/case/missing-required-header.js';
import { negativeDataRejection } from '../checks/case/negative-data-rejection.js';
import { notAServerError } from '../checks/case/not-a-server-error.js';
import { positiveDataAcceptance } from '../checks/case/positive-data-acceptance.js';
import { stateRefusals } from '../checks/case/state-refusals.js';
import { strictMediaTypes } from '../checks/case/strict-media-types.js';
import { textEncoding } from '../checks/case/text-encoding.js';
import { validWritesAccepted } from '../checks/case/valid-writes-accepted.js';
import { writeEcho } from '../checks/case/write-echo.js';
import type { AnswerCheck } from '../checks/case-answer.js';
import type { CheckDefinition, CheckOn } from '../checks/define.js';
import { contentTypeConformance } from '../checks/response/content-type-conformance.js';
import { errorSchemaConformance } from '../checks/response/error-schema-conformance.js';
import { exactPaths } from '../checks/response/exact-paths.js';
import { forbiddenResponseHeaders } from '../checks/response/forbidden-response-headers.js';
import { headAsGet } from '../checks/response/head-as-get.js';
import { noUndocumentedBody } from '../checks/response/no-undocumented-body.js';
import { requiredResponseHeaders } from '../checks/response/required-response-headers.js';
import { responseHeadersConformance } from '../checks/response/response-headers-conformance.js';
import { responseSchemaConformance } from '../checks/response/response-schema-conformance.js';
import { statusCodeConformance } from '../checks/response/status-code-conformance.js';
import { unsupportedMethod } from '../checks/response/unsupported-method.js';
import { deleteIsFinal } from '../stateful/checks/delete-is-final.js';
import { ensureResourceAvailability } from '../stateful/checks/ensure-resource-availability.js';
import { linksSucceed } from '../stateful/checks/links-succeed.js';
import { listingAudit } from '../stateful/checks/listing-audit.js';
import { pagingConformance } from '../stateful/checks/paging-conformance.js';
import { readBack } from '../stateful/checks/read-back.js';
import { useAfterFree } from '../stateful/checks/use-after-free.js';

/**
 * The registry of checks, assembled from their definitions (each in a module of its own, beside the
 * function that decides it). The default ones follow from the spec and HTTP's requirements alone,
 * and are named as Schemathesis names the same checks; the timing check is on with
 * --max-response-time; the profile's are stricter rules a project may hold its own API to, each off
 * unless a config turns it on (config.ts). The planner, the config, the CLI (--checks, --dry-run)
 * and the README's tables all read this one list, in this order.
 */
const DEFINITIONS = [
  notAServerError,
  statusCodeConformance,
  contentTypeConformance,
  responseHeadersConformance,
  responseSchemaConformance,
  negativeDataRejection,
  positiveDataAcceptance,
  missingRequiredHeader,
  unsupportedMethod,
  allowHeaderConformance,
  useAfterFree,
  ensureResourceAvailability,
  ignoredAuth,
  maxResponseTime,
  requiredResponseHeaders,
  forbiddenResponseHeaders,
  errorSchemaConformance,
  authFirst,
  writeEcho,
  headAsGet,
  canonicalNumbers,
  textEncoding,
  strictMediaTypes,
  exactPaths,
  linksSucceed,
  readBack,
  pagingConformance,
  noUndocumentedBody,
  listingAudit,
  deleteIsFinal,
  validWritesAccepted,
  stateRefusals,
] as const;

type Definition = (typeof DEFINITIONS)[number];
export type CheckName = Definition['name'];
type NamesOn<On extends CheckOn> = Extract<Definition, { on: On }>['name'];
export type DefaultCheck = NamesOn<'default'>;
export type ProfileCheck = NamesOn<'profile'>;

const BY_NAME: ReadonlyMap<string, Definition> = new Map(DEFINITIONS.map((definition) => [definition.name, definition]));

export const ALL_CHECKS: readonly CheckName[] = DEFINITIONS.map(({ name }) => name);
const namesOn = <On extends CheckOn>(on: On) =>
  DEFINITIONS.filter((definition) => definition.on === on).map(({ name }) => name) as Array<NamesOn<On>>;
export const DEFAULT_CHECKS: readonly DefaultCheck[] = namesOn('default');
export const TIMING_CHECKS: readonly NamesOn<'timing'>[] = namesOn('timing');
export const PROFILE_CHECKS: readonly ProfileCheck[] = namesOn('profile');

function flagged(flag: 'judgesForm' | 'readsValidAnswers'): CheckName[] {
  return DEFINITIONS.filter((definition: CheckDefinition) => definition[flag] === true).map(({ name }) => name);
}

/** The checks that judge an answer's form, not what it says of the request: they hold of a 429 too. */
export const FORM_CHECKS: ReadonlySet<CheckName> = new Set(flagged('judgesForm'));

/** The checks with something to say of a valid request's answer: valid requests are sent while one is on. */
export const VALID_ANSWER_CHECKS: readonly CheckName[] = flagged('readsValidAnswers');

export function isCheckName(name: string): name is CheckName {
  return BY_NAME.has(name);
}

/** What a check holds an API to, in a line. */
export function describeCheck(name: CheckName): string {
  return BY_NAME.get(name)!.description;
}

/** How a check reads its settings in a config, if it takes any but true or false. */
export function settingsReader(name: CheckName): CheckDefinition['settings'] {
  const definition: CheckDefinition | undefined = BY_NAME.get(name);
  return definition?.settings;
}

/** A check that reads the answer to a case built for it (a negative case's, by the check it was built for). */
export function answerCheck(name: CheckName): AnswerCheck<CheckName> | undefined {
  const definition = BY_NAME.get(name);
  return definition && 'answer' in definition ? definition : undefined;
}

/**
 * The check under which accepting a case that breaks a rule fails: the check that claims the rule
 * (a profile's stricter ones, a missing required header), or else negative_data_rejection.
 */
export function rejectionCheck(rule?: string): CheckName {
  const claims = DEFINITIONS.find(
    (definition) => 'refuses' in definition && rule !== undefined && (definition.refuses as readonly string[]).includes(rule),
  );
  return claims?.name ?? negativeDataRejection.name;
}
