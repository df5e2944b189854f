import { authFirst } from './checks/case/auth-first.js';
import { errorSchemaConformance } from './checks/response/error-schema-conformance.js';
import { exactPaths } from './checks/response/exact-paths.js';
import { forbiddenResponseHeaders } from './checks/response/forbidden-response-headers.js';
import { listingAudit } from './stateful/checks/listing-audit.js';
import { requiredResponseHeaders } from './checks/response/required-response-headers.js';
import { stateRefusals as stateRefusalsCheck } from './checks/case/state-refusals.js';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EMPTY_PROFILE, type ErrorSchemaRule, type Profile as ProfileOf } from './profile.js';
import { isCheckName, PROFILE_CHECKS, type ProfileCheck } from './registry/checks.js';

/** A profile whose checks are the registry's profile checks. */
export type Profile = ProfileOf<ProfileCheck>;
export { EMPTY_PROFILE, type ErrorSchemaRule };

export class ConfigError extends Error {}

type Json = Record<string, unknown>;

function object(value: unknown, where: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where} must be an object`);
  return value as Json;
}

function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new ConfigError(`${where} must be a list of strings`);
  return value as string[];
}

function only(value: Json, keys: string[], where: string): void {
  const unknown = Object.keys(value).filter((key) => !keys.includes(key));
  if (unknown.length) throw new ConfigError(`${where}: unknown ${unknown.join(', ')} (known: ${keys.join(', ')})`);
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new ConfigError(`${where} must be a string`);
  return value;
}

function pointer(value: unknown, where: string): string {
  if (typeof value !== 'string' || !value.startsWith('#/'))
    throw new ConfigError(`${where} must be a JSON pointer such as #/components/schemas/Error`);
  return value.slice(1);
}

/** A profile from a config's JSON (a file's folder given, the spec is read relative to it). */
export function readProfile(json: unknown, folder = '.'): Profile {
  const config = object(json, 'the config');
  only(config, ['$comment', 'name', 'spec', 'failOnNotExercised', 'checks'], 'the config');
  const profile: Profile = {
    ...EMPTY_PROFILE,
    checks: new Set(),
    requiredHeaders: {},
    forbiddenHeaders: [],
    publicPaths: [],
    anyRequestStatuses: [],
  };
  if (config['name'] !== undefined) profile.name = text(config['name'], 'name');
  if (typeof config['spec'] === 'string') profile.spec = resolve(folder, config['spec']);
  if (config['failOnNotExercised'] !== undefined) {
    if (typeof config['failOnNotExercised'] !== 'boolean') throw new ConfigError('failOnNotExercised must be true or false');
    profile.failOnNotExercised = config['failOnNotExercised'];
  }
  const checks = object(config['checks'] ?? {}, 'checks');
  const on = new Set<ProfileCheck>();
  for (const [name, setting] of Object.entries(checks)) {
    const where = `checks.${name}`;
    const check = profileCheck(name, where);
    if (setting === false) continue;
    on.add(check);
    Object.assign(profile, checkSettings(check, setting, where));
  }
  for (const name of [
    requiredResponseHeaders.name,
    forbiddenResponseHeaders.name,
    errorSchemaConformance.name,
    stateRefusalsCheck.name,
  ] as const) {
    if (on.has(name) && checks[name] === true) throw new ConfigError(`checks.${name} needs its settings, not true`);
  }
  profile.checks = on;
  return profile;
}

/** A config's check name as a profile check, or why it is none. */
function profileCheck(name: string, where: string): ProfileCheck {
  if ((PROFILE_CHECKS as readonly string[]).includes(name)) return name as ProfileCheck;
  throw new ConfigError(
    isCheckName(name)
      ? `${where}: ${name} is a default check (select checks with --checks and --exclude-checks)`
      : `${where}: no such check; the profile checks are ${PROFILE_CHECKS.join(', ')}`,
  );
}

/** What a turned-on check's setting (`true` or its settings object) sets in the profile. */
function checkSettings(check: ProfileCheck, setting: unknown, where: string): Partial<Profile> {
  switch (check) {
    case requiredResponseHeaders.name:
      return { requiredHeaders: requiredHeaders(setting, where) };
    case forbiddenResponseHeaders.name:
      return { forbiddenHeaders: strings(setting, where).map((header) => header.toLowerCase()) };
    case errorSchemaConformance.name:
      return { errorSchema: errorSchemaRule(setting, where) };
    case authFirst.name:
      return setting === true ? {} : authFirstSettings(setting, where);
    case exactPaths.name:
      return setting === true ? {} : exactPathsSettings(setting, where);
    case listingAudit.name:
      return setting === true ? {} : { auditPages: auditPages(setting, where) };
    case stateRefusalsCheck.name:
      return { stateRefusals: stateRefusals(setting, where) };
    default:
      if (setting !== true) throw new ConfigError(`${where} takes true or false`);
      return {};
  }
}

/** required_response_headers: each header, lower-cased, to its exact value. */
function requiredHeaders(setting: unknown, where: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(object(setting, where))) {
    if (typeof value !== 'string') throw new ConfigError(`${where}.${header} must be the header's value`);
    headers[header.toLowerCase()] = value;
  }
  return headers;
}

function errorSchemaRule(setting: unknown, where: string): ErrorSchemaRule {
  const rule = object(setting, where);
  only(rule, ['schema', 'mediaType', 'statusProperty', 'codeProperty', 'codes'], where);
  const errorSchema: ErrorSchemaRule = {
    schema: pointer(rule['schema'], `${where}.schema`),
    mediaType: text(rule['mediaType'] ?? 'application/json', `${where}.mediaType`),
  };
  if (rule['statusProperty'] !== undefined) errorSchema.statusProperty = text(rule['statusProperty'], `${where}.statusProperty`);
  if (rule['codeProperty'] !== undefined) errorSchema.codeProperty = text(rule['codeProperty'], `${where}.codeProperty`);
  if (rule['codes'] !== undefined) errorSchema.codes = pointer(rule['codes'], `${where}.codes`);
  return errorSchema;
}

function authFirstSettings(setting: unknown, where: string): Pick<Profile, 'forgedTokenPrefix'> {
  const rule = object(setting, where);
  only(rule, ['forgedTokenPrefix'], where);
  return rule['forgedTokenPrefix'] === undefined
    ? {}
    : { forgedTokenPrefix: text(rule['forgedTokenPrefix'], `${where}.forgedTokenPrefix`) };
}

function exactPathsSettings(setting: unknown, where: string): Pick<Profile, 'publicPaths' | 'anyRequestStatuses'> {
  const rule = object(setting, where);
  only(rule, ['publicPaths', 'anyRequestStatuses'], where);
  const publicPaths = strings(rule['publicPaths'] ?? [], `${where}.publicPaths`).map((source) => new RegExp(source));
  return { publicPaths, anyRequestStatuses: statuses(rule, 'anyRequestStatuses', where) };
}

/** state_refusals: the client errors a valid request may get. */
function stateRefusals(setting: unknown, where: string): number[] {
  const rule = object(setting, where);
  only(rule, ['statuses'], where);
  return statuses(rule, 'statuses', where);
}

/** A setting's list of HTTP statuses (none when it is absent). */
function statuses(rule: Json, key: string, where: string): number[] {
  const list = rule[key] ?? [];
  if (!Array.isArray(list) || list.some((status) => !Number.isInteger(status) || status < 100 || status > 599))
    throw new ConfigError(`${where}.${key} must be a list of statuses`);
  return list as number[];
}

/** listing_audit: the most pages it reads. */
function auditPages(setting: unknown, where: string): number {
  const rule = object(setting, where);
  only(rule, ['maxPages'], where);
  if (!Number.isSafeInteger(rule['maxPages']) || (rule['maxPages'] as number) < 1)
    throw new ConfigError(`${where}.maxPages must be a positive integer`);
  return rule['maxPages'] as number;
}

/** A profile from a config file. */
export function readConfigFile(path: string): Profile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${path}: ${(error as Error).message}`);
  }
  try {
    return readProfile(json, dirname(resolve(path)));
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${path}: ${error.message}`);
    throw error;
  }
}
