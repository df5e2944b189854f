import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { PACKAGE_ROOT } from '../../src/package-root.js';

interface Ruleset {
  rules: Record<string, { then: { function: string; functionOptions?: { responses: Record<string, string> } } }>;
}

/**
 * The shared error responses .spectral.yaml's house rules require (each status with the name of its
 * component), read from the ruleset: a new operation with a body documents them all, and 404.
 */
const ERROR_RESPONSES: Record<string, string> = Object.fromEntries([
  ['404', 'NotFound'],
  ...Object.values((load(readFileSync(join(PACKAGE_ROOT, '.spectral.yaml'), 'utf8')) as Ruleset).rules)
    .filter(({ then }) => then.function === 'required-responses')
    .flatMap(({ then }) => Object.entries(then.functionOptions!.responses)),
]);

/**
 * openapi.yaml with an operation added, as a user would write it: `PUT /pets/{petId}` (replacePet),
 * described, with examples, documenting the shared error responses but those in `without`.
 */
export function withReplacePet(spec: string, { without = [] }: { without?: string[] } = {}): string {
  const errors = Object.entries(ERROR_RESPONSES)
    .filter(([status]) => !without.includes(status))
    .map(([status, name]) => `        '${status}':\n          $ref: '#/components/responses/${name}'\n`);
  const operation = `    put:
      operationId: replacePet
      tags: [animals]
      summary: Replace an animal
      description: Replaces every field of an animal but its \`id\`.
      parameters:
        - name: petId
          in: path
          required: true
          description: Identifier of the animal.
          schema:
            $ref: '#/components/schemas/PetId'
          example: 1
      requestBody:
        required: true
        description: The animal's new fields.
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/NewPet'
            examples:
              sold:
                summary: A sold dog
                value: { name: Rex, categoryId: 3, status: sold }
      responses:
        '200':
          description: The animal as replaced.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
              examples:
                sold:
                  summary: The replaced animal
                  value: { id: 1, name: Rex, categoryId: 3, status: sold }
${errors.join('')}`;
  const at = spec.indexOf('  /store/orders:\n');
  if (at === -1) throw new Error('openapi.yaml has no /store/orders path to add the operation before');
  return spec.slice(0, at) + operation + spec.slice(at);
}
