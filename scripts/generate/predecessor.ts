import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createConfig } from '@redocly/openapi-core';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { basePathOf, type OpenApiDocument } from '../../src/contract/spec.js';
import { latestReleaseOf, readRetirement } from '../../src/contract/versions.js';
import type { FileText } from './scaffold.js';

/**
 * The types of the previous major version while it is served beside this one (openapi.yaml's
 * `info.x-predecessor`): `v{major}/openapi.d.ts` from its latest release in spec/releases/, and
 * `predecessor.ts`, which names them PreviousOperations and PreviousPaths (this version's own when
 * there is no predecessor). The handlers' adapters (src/handlers/predecessor.ts) and the client's
 * second target are typed from it, so `tsc` names every operation where the two versions differ.
 */
export async function predecessorFiles(document: OpenApiDocument, root: string, generatedDir: string, header: string): Promise<FileText[]> {
  const alias = (from: string) =>
    `${header}// The previous major version's types (docs/versioning.md#serving-two-major-versions).\nexport type { operations as PreviousOperations, paths as PreviousPaths } from '${from}';\n`;
  if (!readRetirement(document, basePathOf(document, { onDisagreement: 'refuse' })))
    return [{ path: join(generatedDir, 'predecessor.ts'), text: alias('./openapi.js') }];
  const major = Number(document.info.version.split('.')[0]) - 1;
  const release = latestReleaseOf(join(root, 'spec', 'releases'), major);
  if (!release) throw new Error(`openapi.yaml declares info.x-predecessor, but spec/releases/ has no ${major}.x release`);
  const types = await openapiTS(pathToFileURL(release), { redocly: await createConfig({ extends: [] }), silent: true });
  return [
    { path: join(generatedDir, `v${major}`, 'openapi.d.ts'), text: COMMENT_HEADER + astToString(types) },
    { path: join(generatedDir, 'predecessor.ts'), text: alias(`./v${major}/openapi.js`) },
  ];
}
