import { describe, expect, it } from 'vitest';
import { sentOnce } from '../../src/http/raw-headers.js';

describe('sentOnce', () => {
  it('is true for a field sent once or not at all', () => {
    expect(sentOnce(['Host', 'x', 'Authorization', 'Bearer a'], 'authorization')).toBe(true);
    expect(sentOnce(['Host', 'x'], 'authorization')).toBe(true);
  });

  it('is false for a field sent twice, whatever the case of its name', () => {
    expect(sentOnce(['authorization', 'Bearer a', 'Host', 'x', 'AUTHORIZATION', 'Bearer a'], 'authorization')).toBe(false);
  });

  it('reads names, never values', () => {
    expect(sentOnce(['X-A', 'authorization', 'X-B', 'authorization', 'Authorization', 'Bearer a'], 'authorization')).toBe(true);
  });
});
