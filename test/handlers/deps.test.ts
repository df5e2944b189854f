import { describe, expect, it } from 'vitest';
import { DEFAULT_IDEMPOTENCY_RETENTION_SECONDS } from '../../src/config.js';
import { handlerDeps } from '../../src/handlers/deps.js';
import { openTestStorage } from '../support/test-app.js';

describe('handlerDeps', () => {
  it('fills in the clock and the idempotency retention when they are not given', async () => {
    const storage = await openTestStorage();
    const deps = handlerDeps({ storage, basePath: '/v1', clock: undefined });
    expect(deps).toMatchObject({ storage, basePath: '/v1', idempotencyRetentionSeconds: DEFAULT_IDEMPOTENCY_RETENTION_SECONDS });
    const before = Date.now();
    expect(deps.clock().getTime()).toBeGreaterThanOrEqual(before);
  });

  it('keeps the ones given', async () => {
    const clock = () => new Date(0);
    const deps = handlerDeps({ storage: await openTestStorage(), basePath: '/v2', clock, idempotencyRetentionSeconds: 60 });
    expect(deps).toMatchObject({ basePath: '/v2', clock, idempotencyRetentionSeconds: 60 });
  });
});
