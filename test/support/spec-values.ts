import { parseSpec, readSpecText, resolveRefAt } from '../../src/contract/spec.js';
import type { PetStatus } from '../../src/storage/pets/pets.js';

// Values openapi.yaml states, for the tests that use them: read here, never copied, so that a change
// of the spec changes what the tests expect with it.

const document = parseSpec(readSpecText());

interface SchemaValues {
  enum?: unknown[];
  maxLength?: number;
  maximum?: number;
  default?: unknown;
}

/** The schema of components.schemas[name], its `$ref`s followed. */
export function componentSchema(name: string): SchemaValues {
  return resolveRefAt(document, document.components.schemas[name] as object).value;
}

/** The schema of components.parameters[name]. */
export function parameterSchema(name: string): SchemaValues {
  const parameters = document.components['parameters'] as Record<string, { schema: object }>;
  return resolveRefAt(document, parameters[name]!.schema).value;
}

/** A pet's statuses, in the spec's order. */
export const PET_STATUSES = componentSchema('PetStatus').enum as PetStatus[];

/** listPets' page size: by default, and at most. */
export const PAGE_SIZE = { default: parameterSchema('Limit').default as number, maximum: parameterSchema('Limit').maximum! };

/** The longest name a pet may have. */
export const PET_NAME_MAX_LENGTH = componentSchema('PetName').maxLength!;
