/** The shared error responses a new operation with a body documents (.spectral.yaml's house rules), and 404. */
const ERROR_RESPONSES: Record<string, string> = {
  '400': 'BadRequest',
  '401': 'Unauthorized',
  '404': 'NotFound',
  '413': 'PayloadTooLarge',
  '415': 'UnsupportedMediaType',
  '429': 'TooManyRequests',
  '500': 'InternalError',
  '503': 'ServiceUnavailable',
};

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
