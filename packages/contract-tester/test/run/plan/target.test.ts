import { describe, expect, it } from 'vitest';
import { EMPTY_PROFILE } from '../../../src/config.js';
import { forgeOptions, operationTarget } from '../../../src/run/plan/target.js';
import { GALLERY_SPEC } from '../../support/test-bed/gallery.js';
import { planSession } from '../../support/plan-session.js';

describe('an operation under test', () => {
  it('carries its credentials, the parameters links supply, and how forged credentials look', () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    const update = session.api.operations.find(({ id }) => id === 'updateExhibition')!;
    const target = operationTarget(session, update);
    expect(target.credentials).toEqual(session.credentialsFor(update));
    expect(target.options.linkSupplied).toBeInstanceOf(Set);
    expect(target.forge).toEqual({ malformed: true });
    const prefixed = planSession(GALLERY_SPEC, {}, undefined, { ...EMPTY_PROFILE, forgedTokenPrefix: 'psk_' });
    expect(forgeOptions(prefixed)).toEqual({ tokenPrefix: 'psk_', malformed: true });
  });
});
