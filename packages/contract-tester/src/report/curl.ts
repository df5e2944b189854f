import type { TestRequest } from '../generate/requests.js';
import type { Credential } from '../generate/requests.js';
import { credentialParts, targetWith, withoutMergedCookie, type Credentials } from '../http/credentials.js';

const PRINTABLE = /^[\x20-\x7e]*$/;

const singleQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** One argument for a POSIX shell: single-quoted, or as `$'…'` (bash, zsh) for other bytes (Latin-1 text). */
export function shellQuote(text: string): string {
  if (PRINTABLE.test(text)) return singleQuote(text);
  const bytes = Buffer.from(text, 'latin1');
  const escaped = [...bytes]
    .map((byte) => {
      if (byte === 0x27) return "\\'";
      if (byte === 0x5c) return '\\\\';
      if (byte >= 0x20 && byte <= 0x7e) return String.fromCharCode(byte);
      return `\\x${byte.toString(16).padStart(2, '0')}`;
    })
    .join('');
  return `$'${escaped}'`;
}

/** Marks where a secret goes, as `\0VARIABLE\0`, until the argument is quoted. */
// NUL, which no argument can hold, is the one mark that cannot be part of a header or a target.
const secretMark = (variable: string) => `\u0000${variable}\u0000`;
// eslint-disable-next-line no-control-regex
const MARK = /\u0000([A-Z0-9_]+)\u0000/g;

/** One shell argument: single-quoted, or, with secrets in it, double-quoted with `$VARIABLE`s that expand. */
function argument(text: string): string {
  if (!MARK.test(text)) return shellQuote(text);
  MARK.lastIndex = 0;
  const escaped = text.replace(/[\\"$`]/g, '\\$&').replace(MARK, (_, variable: string) => `$${variable}`);
  return `"${escaped}"`;
}

function isPlainText(body: Buffer): boolean {
  const text = body.toString('utf8');
  const controls = [...text].some((char) => char.charCodeAt(0) === 0x7f || (char < ' ' && char !== '\n' && char !== '\t'));
  return Buffer.from(text, 'utf8').equals(body) && !controls;
}

/** printf's format for exact bytes: octal escapes for anything but printable ASCII. */
function printfFormat(body: Buffer): string {
  const escaped = [...body]
    .map((byte) => {
      if (byte === 0x25) return '%%';
      if (byte === 0x5c) return '\\\\';
      if (byte === 0x27) return "'\\''";
      if (byte >= 0x20 && byte <= 0x7e) return String.fromCharCode(byte);
      return `\\${byte.toString(8).padStart(3, '0')}`;
    })
    .join('');
  return `'${escaped}'`;
}

/** The environment variables a request's secrets come from, in order. */
export function secretVariables(request: TestRequest, credentials: Credentials): string[] {
  const variables: string[] = [];
  credentialParts(request, credentials, (credential) => {
    if (!variables.includes(credential.variable)) variables.push(credential.variable);
    return '';
  });
  return variables;
}

/**
 * The curl command that sends the same request: same method, target (not normalised:
 * `--path-as-is`, no globbing), headers and body bytes. Secrets come from environment variables
 * (HTTP basic as `-u "$VARIABLE"`, user:password), never in clear.
 */
export function curlCommand(origin: string, request: TestRequest, credentials: Credentials): string {
  const basic: Credential[] = [];
  const parts = credentialParts(request, credentials, (credential) => {
    if (credential.basic) basic.push(credential);
    return secretMark(credential.variable);
  });
  const args = ['curl', '-i', '--path-as-is', '-g'];
  if (request.method === 'HEAD') args.push('-I');
  else if (request.method !== 'GET' || request.body)
    args.push('-X', /^[A-Z]+$/.test(request.method) ? request.method : shellQuote(request.method));
  args.push(argument(origin + targetWith(request.target, parts.query)));
  for (const credential of basic) args.push('-u', argument(secretMark(credential.variable)));
  for (const { name, value } of [...withoutMergedCookie(request.headers, parts), ...parts.headers]) {
    if (basic.some((credential) => name === credential.name && value === `${credential.prefix}${secretMark(credential.variable)}`))
      continue;
    args.push('-H', argument(value === '' ? `${name};` : `${name}: ${value}`));
  }
  let input = '';
  if (request.body) {
    // curl would add its own Content-Type for --data, and Expect: 100-continue for larger bodies.
    if (!request.headers.some(({ name }) => name.toLowerCase() === 'content-type')) args.push('-H', "'Content-Type:'");
    if (request.body.length > 1024) args.push('-H', "'Expect:'");
    if (isPlainText(request.body)) {
      args.push('--data-binary', singleQuote(request.body.toString('utf8')));
    } else {
      input = `printf ${printfFormat(request.body)} | `;
      args.push('--data-binary', '@-');
    }
  }
  return input + args.join(' ');
}
