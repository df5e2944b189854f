import { gzipSync, deflateSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { RawConnection, rawRequest } from '../../support/raw-http.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

/** A createPet body whose name is the given bytes, inside an otherwise valid JSON object. */
function bodyWithName(nameBytes: number[]): Buffer {
  return Buffer.concat([Buffer.from('{"name":"R'), Buffer.from(nameBytes), Buffer.from('x","categoryId":1}')]);
}

function post(t: TestApi, body: Buffer | string, headers: Record<string, string> = {}): Buffer {
  const bytes = Buffer.from(body);
  const lines = [
    'POST /v1/pets HTTP/1.1',
    'Host: 127.0.0.1',
    `Authorization: ${t.auth.Authorization}`,
    'Content-Type: application/json',
    `Content-Length: ${bytes.length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), bytes]);
}

describe.each(backends)('request bodies [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
  });

  describe('text that is not well-formed UTF-8', () => {
    it.each([
      ['an overlong "/"', [0xc0, 0xaf]],
      ['an overlong NUL', [0xc0, 0x80]],
      ['a lone continuation byte', [0x80]],
      ['a Latin-1 é', [0xe9]],
      ['a CESU-8 surrogate', [0xed, 0xa0, 0x80]],
      ['a truncated sequence', [0xe2, 0x82]],
      ['a byte never used in UTF-8', [0xff]],
      ['a code point beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ])('refuses %s with 400 invalid_utf8, storing nothing', async (_label, bytes) => {
      const res = await rawRequest(t.origin, post(t, bodyWithName(bytes)), { method: 'POST', url: '/v1/pets' });
      expect(res.body).toEqual({
        code: 'invalid_utf8',
        status: 400,
        message: 'The request body is not well-formed UTF-8; send JSON in UTF-8.',
      });
      expect(await t.storage.listPets({ limit: 10 })).toEqual([]);
    });

    it('accepts well-formed UTF-8, four-byte characters included', async () => {
      const res = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Zoë 🐕 名前', categoryId: 1 }).expect(201);
      expect((res.body as { name: string }).name).toBe('Zoë 🐕 名前');
    });
  });

  describe('strings that are not text', () => {
    it.each([
      ['a lone high surrogate', '"R\\ud800x"', 'body.name must be well-formed Unicode, without unpaired surrogates'],
      ['a lone low surrogate', '"\\udc00"', 'body.name must be well-formed Unicode, without unpaired surrogates'],
      ['surrogates in the wrong order', '"\\udc00\\ud800"', 'body.name must be well-formed Unicode, without unpaired surrogates'],
      ['NUL', '"R\\u0000x"', 'body.name must not contain NUL (U+0000)'],
    ])('refuses a name with %s, naming the field', async (_label, name, sentence) => {
      const res = await t.api
        .post('/v1/pets')
        .set(t.auth)
        .set('Content-Type', 'application/json')
        .send(`{"name":${name},"categoryId":1}`)
        .expect(400);
      expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: `Invalid request: ${sentence}.` });
      expect(await t.storage.listPets({ limit: 10 })).toEqual([]);
    });

    it('refuses NUL in a key too', async () => {
      const res = await t.api
        .post('/v1/pets')
        .set(t.auth)
        .set('Content-Type', 'application/json')
        .send('{"name":"Rex","categoryId":1,"a\\u0000":1}')
        .expect(400);
      expect((res.body as { message: string }).message).toContain('a key of body must not contain NUL');
    });

    it('accepts an escaped surrogate pair (one character)', async () => {
      const res = await t.api
        .post('/v1/pets')
        .set(t.auth)
        .set('Content-Type', 'application/json')
        .send('{"name":"\\ud83d\\udc15","categoryId":1}')
        .expect(201);
      expect((res.body as { name: string }).name).toBe('🐕');
    });
  });

  describe('numbers that a double would change', () => {
    it.each([
      ['1.0000000000000001', 1],
      ['9007199254740993', 9007199254740992],
      ['3.00000000000000001e0', 3],
      ['1e400', Infinity],
      ['-1e400', -Infinity],
      ['1e-400', 0],
    ])('refuses categoryId %s instead of rounding it', async (digits, read) => {
      const res = await t.api
        .post('/v1/pets')
        .set(t.auth)
        .set('Content-Type', 'application/json')
        .send(`{"name":"Rex","categoryId":${digits}}`)
        .expect(400);
      expect(res.body).toEqual({
        code: 'validation_failed',
        status: 400,
        message: `Invalid request: body.categoryId must be a number that a double holds exactly (${digits} would be read as ${read}).`,
      });
      expect(await t.storage.listPets({ limit: 10 })).toEqual([]);
    });

    it.each(['3', '3.0', '3e0', '30e-1', '0.3e1'])('takes categoryId %s as the integer 3 it exactly is', async (digits) => {
      const res = await t.api
        .post('/v1/pets')
        .set(t.auth)
        .set('Content-Type', 'application/json')
        .send(`{"name":"Rex","categoryId":${digits}}`)
        .expect(201);
      expect((res.body as { categoryId: number }).categoryId).toBe(3);
    });
  });

  it('refuses a key given twice, which JSON.parse would settle silently', async () => {
    const res = await t.api
      .post('/v1/pets')
      .set(t.auth)
      .set('Content-Type', 'application/json')
      .send('{"name":"Rex","name":"Tom","categoryId":1}')
      .expect(400);
    expect(res.body).toEqual({
      code: 'validation_failed',
      status: 400,
      message: 'Invalid request: body has the key "name" more than once.',
    });
  });

  it('refuses __proto__ as any other unknown field', async () => {
    const res = await t.api
      .post('/v1/pets')
      .set(t.auth)
      .set('Content-Type', 'application/json')
      .send('{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}')
      .expect(400);
    expect((res.body as { message: string }).message).toContain('body.__proto__ is not a field of this request');
  });

  it.each(['text/plain', 'application/json', 'application/json; charset=utf-8'])(
    'refuses a body whose Content-Type is sent twice (then %s) with 415: a proxy may have read the other',
    async (second) => {
      const res = await rawRequest(t.origin, post(t, '{"name":"Rex","categoryId":1}', { 'content-type': second }), {
        method: 'POST',
        url: '/v1/pets',
      });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ code: 'unsupported_media_type', status: 415 });
      expect((await t.api.get('/v1/pets').set(t.auth).expect(200)).body).toEqual([]);
    },
  );

  it.each([
    ['a thousand unknown fields', `{${Array.from({ length: 1000 }, (_, i) => `"k${i}":1`).join(',')}}`],
    ['a 15,000-digit number', `{"name":"Rex","categoryId":1${'0'.repeat(15_000)}}`],
  ])('answers %s with an Error far smaller than the request', async (_label, body) => {
    const res = await t.api.post('/v1/pets').set(t.auth).set('Content-Type', 'application/json').send(body).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(res.text.length).toBeLessThan(3_000);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
  ])('reads a %s-encoded body', async (coding, encode) => {
    const res = await rawRequest(t.origin, post(t, encode(Buffer.from('{"name":"Rex","categoryId":1}')), { 'Content-Encoding': coding }), {
      method: 'POST',
      url: '/v1/pets',
    });
    expect(res.status).toBe(201);
  });

  it('refuses a content coding it does not know with 415', async () => {
    const res = await rawRequest(t.origin, post(t, '{}', { 'Content-Encoding': 'compress' }), { method: 'POST', url: '/v1/pets' });
    expect(res.body).toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });

  describe('early answers', () => {
    /** A connection on which the head of a POST /v1/pets with these headers was sent, no body yet. */
    async function posting(headers: Record<string, string>, withKey = true): Promise<RawConnection> {
      const connection = await RawConnection.open(t.origin);
      const lines = [
        'POST /v1/pets HTTP/1.1',
        'Host: x',
        'Content-Type: application/json',
        ...(withKey ? [`Authorization: ${t.auth.Authorization}`] : []),
      ];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      connection.write(`${lines.join('\r\n')}\r\n\r\n`);
      return connection;
    }

    it('answers a declared Content-Length over the limit with 413 at once, without reading the body, and closes', async () => {
      const connection = await posting({ 'Content-Length': '1000000000' });
      const res = await connection.response();
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ code: 'payload_too_large', status: 413, message: 'The request body is larger than 16384 bytes.' });
      expect(res.headers['connection']).toBe('close');
      await connection.closed;
    });

    it('answers a chunked body that grows over the limit with 413 and closes, whatever else the client sends', async () => {
      const connection = await posting({ 'Transfer-Encoding': 'chunked' });
      const chunk = 'a'.repeat(4096);
      for (let i = 0; i < 5; i += 1) connection.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      const res = await connection.response();
      expect(res.body).toMatchObject({ code: 'payload_too_large', status: 413 });
      await connection.closed;
    });

    it('sends no 100 Continue to a request without a valid key: 401 straight away', async () => {
      const connection = await posting({ 'Content-Length': '30', Expect: '100-continue' }, false);
      const res = await connection.response();
      expect(res.interim).toEqual([]);
      expect(res.status).toBe(401);
      connection.close();
    });

    it('sends no 100 Continue when the declared length is over the limit: 413 straight away', async () => {
      const connection = await posting({ 'Content-Length': '20000', Expect: '100-continue' });
      const res = await connection.response();
      expect(res.interim).toEqual([]);
      expect(res.status).toBe(413);
      connection.close();
    });

    it('sends 100 Continue once the key and the length are accepted, then reads the body', async () => {
      const body = '{"name":"Rex","categoryId":1}';
      const connection = await posting({ 'Content-Length': String(body.length), Expect: '100-continue' });
      const interim = await connection.response({ interimOnly: true });
      expect(interim.status).toBe(100);
      connection.write(body);
      const res = await connection.response();
      expect(res.status).toBe(201);
      connection.close();
    });
  });
});
