/** A config's values read as what they must be, each refusal a ConfigError naming where in the config it is. */

/** A config that cannot be read, or says what no check takes. */
export class ConfigError extends Error {}

export type Json = Record<string, unknown>;

export function object(value: unknown, where: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where} must be an object`);
  return value as Json;
}

export function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new ConfigError(`${where} must be a list of strings`);
  return value as string[];
}

export function only(value: Json, keys: string[], where: string): void {
  const unknown = Object.keys(value).filter((key) => !keys.includes(key));
  if (unknown.length) throw new ConfigError(`${where}: unknown ${unknown.join(', ')} (known: ${keys.join(', ')})`);
}

export function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new ConfigError(`${where} must be a string`);
  return value;
}

export function pointer(value: unknown, where: string): string {
  if (typeof value !== 'string' || !value.startsWith('#/'))
    throw new ConfigError(`${where} must be a JSON pointer such as #/components/schemas/Error`);
  return value.slice(1);
}

/** A setting's list of HTTP statuses (none when it is absent). */
export function statuses(rule: Json, key: string, where: string): number[] {
  const list = rule[key] ?? [];
  if (!Array.isArray(list) || list.some((status) => !Number.isInteger(status) || status < 100 || status > 599))
    throw new ConfigError(`${where}.${key} must be a list of statuses`);
  return list as number[];
}
