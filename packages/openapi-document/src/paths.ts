function templateSource(template: string, capture = false): string {
  return template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? (capture ? '([^/]+)' : '[^/]+') : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
}

/**
 * Matches a concrete path against a path template spelt exactly: paths are case-sensitive
 * (RFC 3986 §6.2.2.1) and the spec spells each once, without a trailing slash.
 */
export function exactPathPattern(template: string): RegExp {
  return new RegExp(`^${templateSource(template)}$`);
}

/** The path parameters of a concrete path spelt as the template (values percent-decoded), or undefined. */
export function matchPathTemplate(template: string, path: string): Record<string, string> | undefined {
  const match = new RegExp(`^${templateSource(template, true)}$`).exec(path);
  if (!match) return undefined;
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((name) => name[1]!);
  try {
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
  } catch {
    return undefined;
  }
}
