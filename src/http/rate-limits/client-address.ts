import { isIPv4, isIPv6 } from 'node:net';

/** The first four groups of an IPv6 address (its /64 network), written without leading zeros. */
function ipv6Network(address: string): string {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 address at the end stands for two groups.
  const tailLength = tailGroups.length + (tailGroups.at(-1)?.includes('.') ? 1 : 0);
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailLength).fill('0'), ...tailGroups];
  return groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':');
}

/**
 * The client a failed authentication is counted against: an IPv4 address (IPv4-mapped IPv6 ones
 * included) as it is, an IPv6 address by its /64 network, since one subscriber usually holds a
 * whole /64 and could otherwise count as 2^64 clients.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  if (address.startsWith('::ffff:') && isIPv4(address.slice(7))) return address.slice(7);
  if (isIPv6(address)) return `${ipv6Network(address)}::/64`;
  return address;
}
