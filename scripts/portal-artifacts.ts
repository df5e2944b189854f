// What `npm run docs` (scripts/build-docs.ts) writes for a docs portal besides the reference page and the
// bundled spec: a Postman collection, a Backstage descriptor and the spec's changelog since its latest
// release. Each is made from the bundled spec, so they describe exactly what build/docs/ publishes.
import { basename } from 'node:path';
import { promisify } from 'node:util';
import { convertV2, type CollectionResult } from 'openapi-to-postmanv2';
import type { OpenApiDocument } from '../src/contract/spec.js';
import { changelogMarkdown } from './breaking-changes.js';

/** The collection variable that holds the bearer key. */
export const POSTMAN_KEY_VARIABLE = 'apiKey';

/** The parts of a Postman collection (format v2.1) this script touches. */
export interface PostmanCollection {
  info: { name: string; schema: string };
  auth?: { type: string; bearer?: Array<{ key: string; value: string; type?: string }> };
  variable?: Array<{ key: string; value: string; type?: string; description?: string }>;
  item: PostmanItem[];
}

export interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { method: string; url: { path: string[]; host: string[] }; auth?: unknown };
}

/**
 * The collection openapi-to-postmanv2 makes from the bundled spec: one folder per tag, optional
 * parameters present but off (a saved example cursor would otherwise be sent), every request inheriting
 * the collection's bearer auth. The base URL is the collection variable `baseUrl` (the spec's first
 * server, `https://{{host}}/v1`); the key is `{{apiKey}}`, declared empty.
 */
export async function postmanCollection(specJson: string): Promise<PostmanCollection> {
  const result = (await promisify(convertV2)(
    { type: 'string', data: specJson },
    { folderStrategy: 'Tags', parametersResolution: 'Example', enableOptionalParameters: false, alwaysInheritAuthentication: true },
  )) as CollectionResult;
  if (!result.result) throw new Error(`openapi-to-postmanv2: ${result.reason ?? 'conversion failed'}`);
  const collection = result.output?.[0]?.data as PostmanCollection | undefined;
  // The converter turns the spec's bearer scheme into `{{bearerToken}}` without declaring that
  // variable; name it after the API's keys and declare it, so Postman shows where the key goes.
  if (collection?.auth?.type !== 'bearer') throw new Error('openapi-to-postmanv2: expected bearer auth on the collection');
  collection.auth.bearer = [{ key: 'token', value: `{{${POSTMAN_KEY_VARIABLE}}}`, type: 'string' }];
  collection.variable = [
    ...(collection.variable ?? []),
    { key: POSTMAN_KEY_VARIABLE, value: '', type: 'string', description: 'Your API key (psk_...), sent as Authorization: Bearer.' },
  ];
  return collection;
}

/** A Backstage catalog entity (https://backstage.io/docs/features/software-catalog/descriptor-format). */
export interface BackstageApiEntity {
  apiVersion: 'backstage.io/v1alpha1';
  kind: 'API';
  metadata: { name: string; title: string; description: string; tags: string[] };
  spec: { type: 'openapi'; lifecycle: string; owner: string; definition: { $text: string } };
}

/** Lower-case letters, digits and dashes, as Backstage entity names and references require. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The API entity for Backstage's catalog. Its definition is the bundled spec by Backstage's `$text`
 * substitution, read relative to where the descriptor is registered, so the two files are published side
 * by side and the spec is not copied into the descriptor. Named after info.title; owned by the group
 * named after info.contact.name; lifecycle `production`, as info.version is a released one.
 */
export function backstageDescriptor(
  document: OpenApiDocument & { info: { summary?: string; contact?: { name?: string } } },
  definitionFile: string,
): BackstageApiEntity {
  const contact = document.info.contact?.name;
  if (!contact) throw new Error('openapi.yaml: info.contact.name names the owning team for Backstage');
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'API',
    metadata: {
      name: slug(document.info.title),
      title: document.info.title,
      description: document.info.summary ?? document.info.title,
      tags: ['rest', 'openapi'],
    },
    spec: {
      type: 'openapi',
      lifecycle: 'production',
      owner: `group:${slug(contact)}`,
      definition: { $text: `./${basename(definitionFile)}` },
    },
  };
}

/**
 * CHANGELOG.md: `oasdiff changelog` from the latest release to the spec, under a heading that names
 * both (oasdiff's own heading shows only info.version, the same in both until a release bumps it).
 */
export async function specChangelog(releaseFile: string, specFile: string, title: string): Promise<string> {
  const markdown = await changelogMarkdown(releaseFile, specFile);
  const body = markdown
    .replace(/^# .*\n/, '')
    .replace(/^- {2}/gm, '- ') // oasdiff keeps the marker's place on lines without one
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return `# ${title}: changes since ${basename(releaseFile, '.yaml')}\n\n${basename(specFile)} against the release ${basename(releaseFile)}, by \`oasdiff changelog\`; :warning: marks a change the versioning policy counts as breaking.\n\n${body}\n`;
}
