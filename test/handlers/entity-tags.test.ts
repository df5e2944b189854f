import { describe, expect, it } from 'vitest';
import { expectedVersions, petETag } from '../../src/handlers/entity-tags.js';

describe('entity tags', () => {
  it('makes a strong tag of the pet id and its version', () => {
    expect(petETag(1, 1)).toBe('"1-1"');
    expect(petETag(9007199254740991, 12)).toBe('"9007199254740991-12"');
  });

  it.each([
    ['none sent', undefined, undefined],
    ['*', '*', undefined],
    ['one tag of the pet', '"7-3"', [3]],
    ['a list, in any spacing, empty elements and all', ' , "7-3",,  "7-5" ,', [3, 5]],
    ['a weak tag: never matches If-Match (strong comparison)', 'W/"7-3"', []],
    ['a weak and a strong tag', 'W/"7-3", "7-4"', [4]],
    ["another pet's tag", '"8-3"', []],
    ['a tag whose id only starts like the pet’s', '"77-3"', []],
    ['a tag this service never made', '"abc"', []],
    ['a version not in canonical decimal', '"7-03", "7-3.0", "7-+3", "7-"', []],
    ['a version beyond 2^53 - 1', '"7-9007199254740992"', []],
    ['the largest safe version', '"7-9007199254740991"', [9007199254740991]],
  ])('reads If-Match %s as the versions it accepts', (_label, ifMatch, versions) => {
    expect(expectedVersions(7, ifMatch)).toEqual(versions);
  });

  it('reads back the version of every tag it makes', () => {
    for (const version of [1, 2, 10, 123456789]) expect(expectedVersions(42, petETag(42, version))).toEqual([version]);
  });
});
