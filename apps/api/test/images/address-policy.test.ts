import { AddressPolicy, addressRange } from '../../src/infrastructure/address-policy';

// The policy touches no storage, so this file does not loop over dialects.
const target = (address: string, host = 'images.example.com', port = 443) => ({ host, port, address });

describe('address policy for image downloads', () => {
  const policy = AddressPolicy.withAllowlist([]);

  it.each([['93.184.216.34'], ['8.8.8.8'], ['2606:4700:4700::1111'], ['2a00:1450:4001:81b::200e']])(
    'allows the ordinary internet address %s',
    (address) => {
      expect(addressRange(address)).toBe('public');
      expect(policy.check(target(address))).toEqual({ allowed: true });
    },
  );

  it.each([
    ['127.0.0.1', 'loopback', /loopback/],
    ['127.255.0.9', 'loopback', /loopback/],
    ['::1', 'loopback', /loopback/],
    ['10.1.2.3', 'private', /private network/],
    ['172.16.0.1', 'private', /private network/],
    ['172.31.255.254', 'private', /private network/],
    ['192.168.1.20', 'private', /private network/],
    ['fc00::1', 'uniqueLocal', /unique local/],
    ['fd12:3456:789a::1', 'uniqueLocal', /unique local/],
    ['169.254.169.254', 'linkLocal', /link-local .*metadata/],
    ['169.254.0.1', 'linkLocal', /link-local/],
    ['fe80::1', 'linkLocal', /link-local/],
    ['0.0.0.0', 'unspecified', /unspecified/],
    ['0.1.2.3', 'unspecified', /unspecified/],
    ['::', 'unspecified', /unspecified/],
    ['224.0.0.1', 'multicast', /multicast/],
    ['239.255.255.250', 'multicast', /multicast/],
    ['ff02::1', 'multicast', /multicast/],
    ['255.255.255.255', 'broadcast', /broadcast/],
    ['100.64.0.1', 'carrierGradeNat', /carrier-grade NAT/],
    ['100.127.255.254', 'carrierGradeNat', /carrier-grade NAT/],
    ['192.0.2.10', 'reserved', /reserved/],
    ['198.18.0.1', 'reserved', /reserved/],
    ['240.0.0.1', 'reserved', /reserved/],
    ['2001:db8::1', 'reserved', /reserved/],
  ])('refuses %s (%s)', (address, range, reason) => {
    expect(addressRange(address)).toBe(range);
    const verdict = policy.check(target(address));
    expect(verdict.allowed).toBe(false);
    expect(verdict).toMatchObject({ reason: expect.stringMatching(reason) });
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:192.168.0.1', 'private'],
  ])('judges the IPv4-mapped IPv6 address %s as the IPv4 address it maps (%s)', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(policy.check(target(address)).allowed).toBe(false);
  });

  it('allows an IPv4-mapped IPv6 address of a public host', () => {
    expect(policy.check(target('::ffff:93.184.216.34')).allowed).toBe(true);
  });

  it.each([
    ['::7f00:1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['100::1', 'discard'],
  ])('refuses %s, an IPv6 form that embeds or tunnels other addresses (%s)', (address) => {
    expect(policy.check(target(address)).allowed).toBe(false);
  });

  describe('allowlist', () => {
    it('allows a refused address when the host name is allowlisted, with or without port', () => {
      const byHost = AddressPolicy.withAllowlist(['Images.Internal']);
      expect(byHost.check(target('10.0.0.5', 'images.internal', 8080)).allowed).toBe(true);
      expect(byHost.check(target('10.0.0.5', 'images.internal.', 443)).allowed).toBe(true);
      expect(byHost.check(target('10.0.0.5', 'other.internal', 8080)).allowed).toBe(false);

      const byHostAndPort = AddressPolicy.withAllowlist(['images.internal:8080']);
      expect(byHostAndPort.check(target('10.0.0.5', 'images.internal', 8080)).allowed).toBe(true);
      expect(byHostAndPort.check(target('10.0.0.5', 'images.internal', 8081)).allowed).toBe(false);
    });

    it('allows addresses inside an allowlisted CIDR range, and only those', () => {
      const byRange = AddressPolicy.withAllowlist(['10.20.0.0/16', 'fd00::/8']);
      expect(byRange.check(target('10.20.3.4')).allowed).toBe(true);
      expect(byRange.check(target('::ffff:10.20.3.4')).allowed).toBe(true);
      expect(byRange.check(target('10.21.0.1')).allowed).toBe(false);
      expect(byRange.check(target('fd00::7')).allowed).toBe(true);
      expect(byRange.check(target('fc00::7')).allowed).toBe(false);
      expect(byRange.check(target('127.0.0.1')).allowed).toBe(false);
    });

    it('allows a single allowlisted address, optionally only on one port', () => {
      const single = AddressPolicy.withAllowlist(['127.0.0.1', '[::1]:8443']);
      expect(single.check(target('127.0.0.1', '127.0.0.1', 1234)).allowed).toBe(true);
      expect(single.check(target('127.0.0.2', '127.0.0.2', 1234)).allowed).toBe(false);
      expect(single.check(target('::1', '::1', 8443)).allowed).toBe(true);
      expect(single.check(target('::1', '::1', 8444)).allowed).toBe(false);
    });

    it('allows the cloud metadata address only when it is named explicitly', () => {
      expect(AddressPolicy.withAllowlist(['10.0.0.0/8']).check(target('169.254.169.254')).allowed).toBe(false);
      expect(AddressPolicy.withAllowlist(['169.254.169.254']).check(target('169.254.169.254')).allowed).toBe(true);
    });

    it.each([
      ['10.0.0.0/33'],
      ['http://images.internal'],
      ['images.internal:port'],
      ['images internal'],
      ['[::1]:99999'],
    ])('refuses the invalid entry %j', (entry) => {
      expect(() => AddressPolicy.withAllowlist([entry])).toThrow(/entry|CIDR|port|host/);
    });

    it('normalises and lists its entries, ignoring blanks', () => {
      expect(AddressPolicy.withAllowlist([' Images.Internal:8080 ', '', '10.0.0.0/8']).allowlist).toEqual([
        'images.internal:8080',
        '10.0.0.0/8',
      ]);
    });
  });
});
