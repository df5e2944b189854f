import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../src/http/rate-limits/client-address.js';

describe('the client a failed authentication counts against', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::1', '0:0:0:0::/64'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3:8d3::/64'],
    ['2001:db8:85a3:8d3::1', '2001:db8:85a3:8d3::/64'],
    ['2001:0db8:85a3:08d3:ffff::', '2001:db8:85a3:8d3::/64'],
    ['2001:db8::7', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    [undefined, 'unknown'],
  ])('is %s → %s (IPv6 by its /64 network)', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  it('puts every address of one /64 together, and different /64s apart', () => {
    expect(clientKey('2001:db8:1:2::a')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:1:2::a')).not.toBe(clientKey('2001:db8:1:3::a'));
  });
});
