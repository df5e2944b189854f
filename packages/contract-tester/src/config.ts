import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EMPTY_PROFILE, type ErrorSchemaRule, type Profile as ProfileOf, type ProfileSettings } from './profile.js';
import { isCheckName, PROFILE_CHECKS, settingsReader, type ProfileCheck } from './registry/checks.js';
import { ConfigError, object, only, text } from './settings.js';

/** A profile whose checks are the registry's profile checks. */
export type Profile = ProfileOf<ProfileCheck>;
export { EMPTY_PROFILE, type ErrorSchemaRule };
export { ConfigError };

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

/** What a turned-on check's setting (`true` or its settings object) sets in the profile: the check reads its own. */
function checkSettings(check: ProfileCheck, setting: unknown, where: string): ProfileSettings {
  const read = settingsReader(check);
  if (read) return read(setting, where);
  if (setting !== true) throw new ConfigError(`${where} takes true or false`);
  return {};
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
