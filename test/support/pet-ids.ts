/**
 * petIds a request may not name, at and past the bounds of the PetId schema (1 to 2^53 − 1), with
 * what the Error object says of each: every operation on /pets/{petId} answers them the same.
 */
export const OUT_OF_RANGE_PET_IDS: ReadonlyArray<[petId: string, sentence: string]> = [
  ['0', 'path.petId must be >= 1'],
  ['-1', 'path.petId must be >= 1'],
  ['9007199254740992', 'path.petId must be <= 9007199254740991; path.petId must match format "int64"'],
  ['9223372036854775807', 'path.petId must be <= 9007199254740991; path.petId must match format "int64"'],
  ['9223372036854775808', 'path.petId must be <= 9007199254740991; path.petId must match format "int64"'],
];

/** The largest petId there can be, 2^53 − 1: valid, and no pet has it. */
export const LARGEST_PET_ID = String(Number.MAX_SAFE_INTEGER);
