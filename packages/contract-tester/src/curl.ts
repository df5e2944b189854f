import { credentialHeaders, targetWithKey } from './http-client.js';
import type { TestRequest } from './requests.js';

/** The environment variable the printed commands read the key from: a key is never printed. */
export const KEY_VARIABLE = 'PETSTORE_API_KEY';

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

/** A double-quoted argument in which `$KEY_VARIABLE` expands and nothing else does. */
function withKey(text: string, placeholder: string): string {
  const escaped = text.replace(/[\\"$`]/g, '\\$&').replace(placeholder, `$${KEY_VARIABLE}`);
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

/**
 * The curl command that sends the same request: same method, target (not normalised:
 * `--path-as-is`, no globbing), headers and body bytes. The key comes from $PETSTORE_API_KEY.
 */
export function curlCommand(origin: string, request: TestRequest): string {
  const placeholder = '\u0000key\u0000';
  const args = ['curl', '-i', '--path-as-is', '-g'];
  if (request.method === 'HEAD') args.push('-I');
  else if (request.method !== 'GET' || request.body)
    args.push('-X', /^[A-Z]+$/.test(request.method) ? request.method : shellQuote(request.method));
  const target = targetWithKey(request, placeholder);
  args.push(target.includes(placeholder) ? withKey(origin + target, placeholder) : shellQuote(origin + target));
  for (const { name, value } of [...request.headers, ...credentialHeaders(request, placeholder)]) {
    const header = value === '' ? `${name};` : `${name}: ${value}`;
    args.push('-H', header.includes(placeholder) ? withKey(header, placeholder) : shellQuote(header));
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
