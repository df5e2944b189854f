import fc from 'fast-check';
import type { BodyKind, MediaModel, Schema } from '../spec/model.js';
import { jsonText, type JsonValue } from './json-text.js';
import { keepWhere } from './bounded-filter.js';
import { isValid } from './schema-validator.js';
import { typesOf, validValue } from './valid-values.js';

/**
 * A request body: a JSON value (written at sending, raw pieces byte for byte), or bytes as they are
 * with the value they were made from, if any (a form, say).
 */
export type RequestBody = { mediaType: string; value: JsonValue } | { mediaType: string | undefined; bytes: Buffer; value?: unknown };

/** Valid values of a body schema, checked by the validator. */
export function validJson(schema: Schema): fc.Arbitrary<JsonValue> {
  return keepWhere(validValue(schema), (value) => isValid(schema, value), 'a valid body') as fc.Arbitrary<JsonValue>;
}

/** A JSON media type as a client sends it: bare, or with the UTF-8 charset. */
function jsonMediaType(mediaType: string): fc.Arbitrary<string> {
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 4, arbitrary: fc.constant(mediaType) },
    { weight: 1, arbitrary: fc.constant(`${mediaType}; charset=utf-8`) },
  );
}

/** The properties of a form (form-urlencoded or multipart) as name and text, a list exploded into one pair per item. */
function formFields(value: unknown, schema: Schema): Array<{ name: string; text: string; binary: boolean; json: boolean }> {
  const properties = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
  const fields: Array<{ name: string; text: string; binary: boolean; json: boolean }> = [];
  for (const [name, item] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    const property = properties[name] ?? {};
    const binary = property['format'] === 'binary' || property['contentMediaType'] !== undefined;
    // OpenAPI's default encoding: a primitive as text, a list as one field per item, an object (or
    // an item that is one) as JSON.
    const items = Array.isArray(item) && !typesOf((property['items'] as Schema | undefined) ?? {}).includes('object') ? item : [item];
    for (const one of items) {
      const json = one !== null && typeof one === 'object';
      fields.push({ name, text: json ? jsonText(one) : one === null ? '' : String(one), binary, json });
    }
  }
  return fields;
}

/** application/x-www-form-urlencoded (WHATWG URL's serialisation: spaces as +). */
export function encodeForm(value: unknown, schema: Schema): Buffer {
  const search = new URLSearchParams();
  for (const { name, text } of formFields(value, schema)) search.append(name, text);
  return Buffer.from(search.toString(), 'utf8');
}

/** multipart/form-data (RFC 7578) with this boundary: text parts, JSON parts, and files. */
export function encodeMultipart(value: unknown, schema: Schema, boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const { name, text, binary, json } of formFields(value, schema)) {
    const quoted = name.replace(/["\\\r\n]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    const disposition = `form-data; name="${quoted}"${binary ? `; filename="${quoted}.bin"` : ''}`;
    const type = binary ? 'application/octet-stream' : json ? 'application/json' : 'text/plain; charset=utf-8';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${type}\r\n\r\n${text}\r\n`, 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** A fixed boundary no generated text contains (its characters include ones text units never make together). */
export const MULTIPART_BOUNDARY = 'contract-test-boundary-7MA4YWxkTrZu0gW';

/** The media type a binary body goes as: the documented one, or octet-stream for a range such as image/*. */
function concreteBinaryType(mediaType: string): string {
  const type = mediaType.split(';')[0]!.trim();
  if (type === '*/*' || type.endsWith('/*')) return type.startsWith('image/') ? 'image/png' : 'application/octet-stream';
  return mediaType;
}

/** The smallest PNG there is (one transparent pixel): image bytes a server that reads images takes. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function binaryBodies(mediaType: string): fc.Arbitrary<RequestBody> {
  const type = concreteBinaryType(mediaType);
  const bytes = type.startsWith('image/png')
    ? fc.constant(ONE_PIXEL_PNG)
    : fc.uint8Array({ minLength: 1, maxLength: 64 }).map((array) => Buffer.from(array));
  return bytes.map((buffer) => ({ mediaType: type, bytes: buffer }));
}

/** Valid bodies of one media type the tester can make. */
export function bodyValues(media: MediaModel & { kind: BodyKind }): fc.Arbitrary<RequestBody> {
  const { mediaType, schema } = media;
  switch (media.kind) {
    case 'json':
      return fc.record({ mediaType: jsonMediaType(mediaType), value: validJson(schema) });
    case 'form':
      return validJson(schema).map((value) => ({ mediaType, bytes: encodeForm(value, schema), value }));
    case 'multipart':
      return validJson(schema).map((value) => ({
        mediaType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
        bytes: encodeMultipart(value, schema, MULTIPART_BOUNDARY),
        value,
      }));
    case 'binary':
      return binaryBodies(mediaType);
    case 'text':
      return keepWhere(validJson(schema), (value): value is string => typeof value === 'string', 'a valid text body').map((value) => ({
        mediaType,
        bytes: Buffer.from(value, 'utf8'),
        value,
      }));
  }
}

/** A given value (an example) as a body of one media type the tester can make. */
export function bodyOf(media: MediaModel & { kind: BodyKind }, value: unknown): RequestBody {
  const { mediaType, schema } = media;
  switch (media.kind) {
    case 'json':
      return { mediaType, value: value as JsonValue };
    case 'form':
      return { mediaType, bytes: encodeForm(value, schema), value };
    case 'multipart':
      return {
        mediaType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
        bytes: encodeMultipart(value, schema, MULTIPART_BOUNDARY),
        value,
      };
    case 'binary':
      return { mediaType: concreteBinaryType(mediaType), bytes: Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8') };
    case 'text':
      return { mediaType, bytes: Buffer.from(String(value), 'utf8'), value };
  }
}
