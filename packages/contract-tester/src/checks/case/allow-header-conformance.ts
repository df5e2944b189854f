import type { CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** The methods an `Allow` header lists, upper-cased. */
export function allowList(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((method) => method.trim().toUpperCase())
    .filter(Boolean);
}

/** The methods the path has that an Allow header leaves out, in words; nothing when it lists them all. */
function leftOut(listed: string[], allowed: string[]): string[] {
  const missing = allowed.filter((method) => !listed.includes(method));
  return missing.length ? [`Allow: ${listed.join(', ') || '(empty)'} leaves out ${missing.join(', ')}`] : [];
}

/** The Allow of a 405 (to a method the path does not have) or of a successful OPTIONS lists the path's methods, and not the refused one. */
export const allowHeaderConformance = defineCheck({
  name: 'allow_header_conformance',
  on: 'default',
  description: "the Allow of a 405 or OPTIONS lists the path's methods",
  answer: function allowHeaderConformance({ kind, request, response, allowed }: CaseAnswer): string[] {
    const { status } = response;
    const header = response.headers['allow'];
    if (kind === 'options') return status >= 200 && status < 300 && header !== undefined ? leftOut(allowList(header), allowed) : [];
    // A 405 without Allow is unsupported_method's to report, once.
    if (kind !== 'method' || status !== 405 || header === undefined) return [];
    const listed = allowList(header);
    return [...leftOut(listed, allowed), ...(listed.includes(request.method) ? [`Allow lists ${request.method}, which was refused`] : [])];
  },
});
