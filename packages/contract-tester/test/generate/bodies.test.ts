import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyOf, bodyValues, encodeForm, encodeMultipart, MULTIPART_BOUNDARY } from '../../src/generate/bodies.js';
import { isValid } from '../../src/generate/schema-validator.js';
import type { BodyKind, MediaModel } from '../../src/spec/model.js';

const schema = {
  type: 'object',
  required: ['name', 'tags'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 8 },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' } },
    photo: { type: 'string', format: 'binary' },
    owner: { type: 'object' },
  },
};
const media = (mediaType: string, kind: BodyKind, of: Record<string, unknown> = schema): MediaModel & { kind: BodyKind } => ({
  mediaType,
  kind,
  schema: of,
  examples: [],
});

describe('request bodies', () => {
  it('JSON: a valid value, the media type bare or with the UTF-8 charset', () => {
    const bodies = fc.sample(bodyValues(media('application/merge-patch+json', 'json')), { numRuns: 100, seed: 1 });
    for (const body of bodies) expect('value' in body && isValid(schema, body.value)).toBe(true);
    expect(new Set(bodies.map(({ mediaType }) => mediaType))).toEqual(
      new Set(['application/merge-patch+json', 'application/merge-patch+json; charset=utf-8']),
    );
  });

  it('a form: each property a field, a list one field per item, an object as JSON', () => {
    expect(encodeForm({ name: 'a b', tags: ['x', 'y'], owner: { id: 1 }, age: 3 }, schema).toString()).toBe(
      'name=a+b&tags=x&tags=y&owner=%7B%22id%22%3A1%7D&age=3',
    );
    const [body] = fc.sample(bodyValues(media('application/x-www-form-urlencoded', 'form')), { numRuns: 1, seed: 2 });
    expect(body).toMatchObject({ mediaType: 'application/x-www-form-urlencoded' });
    expect(isValid(schema, (body as { value: unknown }).value)).toBe(true);
  });

  it('multipart/form-data: text parts, JSON parts, and files', () => {
    const text = encodeMultipart({ name: 'n', photo: 'xyz', owner: { a: 1 } }, schema, 'B').toString();
    expect(text).toBe(
      '--B\r\nContent-Disposition: form-data; name="name"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nn\r\n' +
        '--B\r\nContent-Disposition: form-data; name="photo"; filename="photo.bin"\r\nContent-Type: application/octet-stream\r\n\r\nxyz\r\n' +
        '--B\r\nContent-Disposition: form-data; name="owner"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--B--\r\n',
    );
    const [body] = fc.sample(bodyValues(media('multipart/form-data', 'multipart')), { numRuns: 1, seed: 3 });
    expect(body!.mediaType).toBe(`multipart/form-data; boundary=${MULTIPART_BOUNDARY}`);
  });

  it('binary: bytes, a PNG for image/png, octet-stream for a range', () => {
    const [bytes] = fc.sample(bodyValues(media('application/octet-stream', 'binary', {})), { numRuns: 1, seed: 4 });
    expect(bytes).toMatchObject({ mediaType: 'application/octet-stream' });
    const [png] = fc.sample(bodyValues(media('image/*', 'binary', {})), { numRuns: 1, seed: 4 });
    expect(png!.mediaType).toBe('image/png');
    expect((png as { bytes: Buffer }).bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bodyOf(media('*/*', 'binary', {}), 'raw').mediaType).toBe('application/octet-stream');
  });

  it('text: a valid string', () => {
    const texts = fc.sample(bodyValues(media('text/plain', 'text', { type: 'string', maxLength: 5 })), { numRuns: 20, seed: 5 });
    for (const body of texts) expect((body as { bytes: Buffer }).bytes.toString('utf8').length).toBeLessThanOrEqual(10);
    expect(bodyOf(media('text/plain', 'text', {}), 'hi')).toEqual({ mediaType: 'text/plain', bytes: Buffer.from('hi'), value: 'hi' });
  });
});
