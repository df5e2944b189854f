import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { credentialParts, Credentials, targetWith, variableName } from '../../src/http/credentials.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';
import { GALLERY_SPEC } from '../support/test-bed/gallery.js';
import { SHELTER_SPEC } from '../support/test-bed/shelter.js';

const model = (path: string) =>
  readApiModel(parseSpec(readFileSync(path, 'utf8').replace(/shelter-schemas\.yaml#\/\w+/g, '#/components/schemas/Error')));
const board = model(BOARD_SPEC);
const gallery = model(GALLERY_SPEC);
const shelter = model(SHELTER_SPEC);
const operation = (api: typeof board, id: string) => api.operations.find((candidate) => candidate.id === id)!;

describe('the credentials the tester holds', () => {
  it('fill, per operation, the first alternative of its security it holds every scheme of', () => {
    const bearerOnly = new Credentials({ security: { bearerAuth: 't' } }).forOperation(operation(board, 'getGame'));
    expect(bearerOnly).toMatchObject({
      kind: 'authenticated',
      credentials: [
        { scheme: 'bearerAuth', place: 'header', name: 'Authorization', prefix: 'Bearer ', variable: 'CONTRACT_TEST_SECURITY_BEARERAUTH' },
      ],
    });
    const both = new Credentials({ security: { bearerAuth: 't', apiKey: 'k' } }).forOperation(operation(board, 'getGame'));
    expect(both).toMatchObject({
      kind: 'authenticated',
      credentials: [{ scheme: 'apiKey', name: 'X-API-Key', variable: 'CONTRACT_TEST_SECURITY_APIKEY' }],
    });
    const oauth = new Credentials({ security: { oauth: 'o' } }).forOperation(operation(board, 'getGame'));
    expect(oauth).toMatchObject({ kind: 'authenticated', credentials: [{ scheme: 'oauth', name: 'Authorization', prefix: 'Bearer ' }] });
  });

  it('take HTTP basic from --auth, any key scheme from --api-key, and a header given with -H', () => {
    expect(new Credentials({ basic: 'u:p' }).forOperation(operation(gallery, 'getExhibition'))).toMatchObject({
      kind: 'authenticated',
      credentials: [{ name: 'Authorization', prefix: 'Basic ', variable: 'CONTRACT_TEST_AUTH', basic: true }],
    });
    expect(new Credentials({ apiKey: 'k' }).forOperation(operation(board, 'getGame'))).toMatchObject({
      credentials: [{ name: 'X-API-Key', variable: 'CONTRACT_TEST_API_KEY' }],
    });
    const header = new Credentials({ headers: [{ name: 'x-api-key', value: 'k' }] });
    expect(header.forOperation(operation(board, 'getGame'))).toMatchObject({
      credentials: [{ scheme: 'apiKey', name: 'x-api-key', variable: 'CONTRACT_TEST_HEADER_X_API_KEY' }],
    });
    const authorization = new Credentials({ headers: [{ name: 'Authorization', value: 'Basic dTpw' }] });
    expect(authorization.forOperation(operation(gallery, 'getExhibition')).kind).toBe('authenticated');
    expect(authorization.forOperation(operation(board, 'getGame')).kind).toBe('impossible');
  });

  it('say why an operation cannot be authenticated, and need none where the spec asks for none', () => {
    expect(new Credentials({ security: { apiKey: 'k' } }).forOperation(operation(shelter, 'addAnimal'))).toEqual({
      kind: 'impossible',
      reason: 'it needs oauth (oauth2); give --security NAME=VALUE (or --auth, --api-key, -H)',
    });
    const open = { ...operation(shelter, 'addAnimal'), security: { alternatives: [], optional: false } };
    expect(new Credentials().forOperation(open)).toEqual({ kind: 'none-needed' });
  });

  it('keep secrets by variable: a -H header with one too, the others in clear', () => {
    const held = new Credentials({
      headers: [
        { name: 'X-Session-Token', value: 's' },
        { name: 'Accept-Language', value: 'fr' },
      ],
      basic: 'u:p',
    });
    expect(held.secretHeaders.map(({ name, variable }) => `${name} ${variable}`)).toEqual([
      'X-Session-Token CONTRACT_TEST_HEADER_X_SESSION_TOKEN',
    ]);
    expect(held.plainHeaders).toEqual([{ name: 'Accept-Language', value: 'fr' }]);
    expect(
      held.secretOf({ scheme: 'b', place: 'header', name: 'Authorization', prefix: 'Basic ', variable: 'CONTRACT_TEST_AUTH', basic: true }),
    ).toBe('dTpw');
    expect(variableName('SECURITY', 'petstore_auth-v2')).toBe('CONTRACT_TEST_SECURITY_PETSTORE_AUTH_V2');
  });

  it('leave out, without valid credentials, every place any scheme of the operation could take them', () => {
    const held = new Credentials({ headers: [{ name: 'X-API-Key', value: 'k' }], security: { bearerAuth: 't' } });
    expect(held.credentialPlaces(operation(board, 'getGame'))).toEqual([
      { place: 'header', name: 'X-API-Key' },
      { place: 'header', name: 'X-API-Key' },
      { place: 'header', name: 'Authorization' },
      { place: 'header', name: 'Authorization' },
    ]);
    const request = { headers: [], credentials: { kind: 'none' as const } };
    expect(credentialParts(request, held, () => 'secret')).toEqual({ headers: [], query: [] });
  });

  it("write a request's credentials, each secret as asked, the -H headers with them", () => {
    const held = new Credentials({
      headers: [
        { name: 'X-Trace', value: '1' },
        { name: 'X-Api-Token', value: 'h' },
      ],
    });
    const key = { scheme: 'k', place: 'query' as const, name: 'api key', prefix: '', variable: 'V' };
    const parts = credentialParts(
      { headers: [], credentials: { kind: 'valid', credentials: [key] } },
      held,
      (credential) => `$${credential.variable}`,
    );
    expect(parts).toEqual({
      headers: [
        { name: 'X-Api-Token', value: '$CONTRACT_TEST_HEADER_X_API_TOKEN' },
        { name: 'X-Trace', value: '1' },
      ],
      query: [['api%20key', '$V']],
    });
    expect(targetWith('/a?b=1', parts.query)).toBe('/a?b=1&api%20key=$V');
  });

  // Google's documents (APIs-guru): every operation's alternatives each require two OAuth2 schemes together.
  const googleShaped = readApiModel(
    parseSpec(
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'repos', version: '1' },
        paths: {
          '/repos': {
            get: {
              responses: { '200': { description: 'ok' } },
              security: [
                { Oauth2: ['read'], Oauth2c: ['read'] },
                { Oauth2: ['admin'], Oauth2c: ['admin'] },
              ],
            },
            post: {
              responses: { '200': { description: 'ok' } },
              security: [{ basic: [], bearer: [] }, { key: [] }],
            },
            delete: { responses: { '200': { description: 'ok' } }, security: [{ basic: [], bearer: [] }] },
          },
        },
        components: {
          securitySchemes: {
            Oauth2: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://a.test/auth', scopes: { read: 'r', admin: 'a' } } } },
            Oauth2c: {
              type: 'oauth2',
              flows: {
                authorizationCode: { authorizationUrl: 'https://a.test/auth', tokenUrl: 'https://a.test/token', scopes: { read: 'r' } },
              },
            },
            basic: { type: 'http', scheme: 'basic' },
            bearer: { type: 'http', scheme: 'bearer' },
            key: { type: 'apiKey', in: 'header', name: 'X-Key' },
          },
        },
      }),
    ),
  );
  const repos = (method: string) => googleShaped.operations.find((candidate) => candidate.method === method)!;

  it('send one alternative, and one value per header: schemes of one alternative that share Authorization share one token', () => {
    const held = new Credentials({ apiKey: 'token' });
    const authentication = held.forOperation(repos('get'));
    expect(authentication).toMatchObject({ kind: 'authenticated', credentials: [{ scheme: 'Oauth2', name: 'Authorization' }] });
    const credentials = authentication.kind === 'authenticated' ? authentication.credentials : [];
    const { headers } = credentialParts({ headers: [], credentials: { kind: 'valid', credentials } }, held, () => 'token');
    expect(headers).toEqual([{ name: 'Authorization', value: 'Bearer token' }]);
  });

  it('take another alternative, or say why none, where one would need two values of Authorization (basic and bearer together)', () => {
    const held = new Credentials({ apiKey: 'token', basic: 'u:p' });
    expect(held.forOperation(repos('post'))).toMatchObject({ kind: 'authenticated', credentials: [{ scheme: 'key', name: 'X-Key' }] });
    const refused = held.forOperation(repos('delete'));
    expect(refused.kind).toBe('impossible');
    expect(refused.kind === 'impossible' && refused.reason).toMatch(
      /basic \(http basic\) \+ bearer \(http bearer\).*two values for one header/,
    );
  });
});
