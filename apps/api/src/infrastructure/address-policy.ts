import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Where a download would connect: the URL's host and port and the address that host resolved to. */
export interface ConnectionTarget {
  /** The URL's host name, lower-case, without IPv6 brackets. */
  host: string;
  port: number;
  /** The IP address (v4 or v6, as text) the connection would go to. */
  address: string;
}

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** The public unicast IPv6 space; everything outside it (IPv4-compatible ::/96, ULA, site-local …) is special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

const RANGE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  unspecified: 'an unspecified address (0.0.0.0 or ::)',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (the range of cloud metadata services)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private network address',
  uniqueLocal: 'a private (unique local) IPv6 address',
  reserved: 'a reserved address',
};

/** IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) reach IPv4 hosts, so they are judged as the IPv4 address. */
function unmapped(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/**
 * The special-purpose range an IP address lies in (`loopback`, `private`, `linkLocal`,
 * `uniqueLocal`, `carrierGradeNat`, `multicast`, `reserved`, …), or `public` for an ordinary
 * internet address. IPv6 counts as public only inside 2000::/3 and outside every special range,
 * which also refuses the embeddings of IPv4 (IPv4-compatible, NAT64, 6to4, Teredo).
 */
export function addressRange(text: string): string {
  const address = unmapped(ipaddr.parse(text));
  const range = address.range();
  if (range !== 'unicast') return range;
  if (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return 'public';
}

type AllowEntry =
  | { kind: 'host'; host: string; port: number | null; text: string }
  | { kind: 'range'; range: [Address, number]; port: number | null; text: string };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}[a-z0-9_])?)*$/;

function portOf(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) throw new Error(`"${entry}" has an invalid port`);
  return port;
}

function parseEntry(raw: string): AllowEntry {
  const text = raw.trim().toLowerCase();
  if (text.includes('/')) {
    try {
      return { kind: 'range', range: ipaddr.parseCIDR(text), port: null, text };
    } catch {
      throw new Error(
        `"${raw}" is not a CIDR range such as 10.0.0.0/8 or fd00::/8 (entries are host[:port], an IP address or a CIDR range)`,
      );
    }
  }
  let host = text;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2] !== undefined) port = portOf(bracketed[2], raw);
  } else if ((text.match(/:/g) ?? []).length === 1) {
    const colon = text.indexOf(':');
    host = text.slice(0, colon);
    port = portOf(text.slice(colon + 1), raw);
  }
  if (ipaddr.isValid(host)) {
    const address = ipaddr.parse(host);
    return { kind: 'range', range: [address, address.kind() === 'ipv4' ? 32 : 128], port, text };
  }
  if (!HOST_NAME.test(host)) throw new Error(`"${raw}" is neither a host[:port], an IP address nor a CIDR range`);
  return { kind: 'host', host, port, text };
}

function inRange(address: Address, [network, bits]: [Address, number]): boolean {
  const candidate = network.kind() === 'ipv4' ? unmapped(address) : address;
  return candidate.kind() === network.kind() && candidate.match(network, bits);
}

/**
 * Decides whether an image download may connect to a target. Ordinary internet addresses are
 * allowed; loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved
 * and other special-purpose addresses are refused (server-side request forgery: an integrator
 * must not make the platform fetch from its own network or the cloud metadata service) unless an
 * allowlist entry names the host (`images.internal`, `images.internal:8080`), the address
 * (`10.1.2.3`, `[fd00::1]:8443`) or a range holding it (`10.20.0.0/16`, `fd00::/8`).
 */
export class AddressPolicy {
  private constructor(
    private readonly entries: readonly AllowEntry[],
    private readonly reaching: string,
  ) {}

  /**
   * A policy from allowlist entries (IMAGE_ALLOWED_HOSTS, WEBHOOK_ALLOWED_HOSTS); throws naming the
   * first invalid entry. `reaching` names who is refused in the reason ("image downloads").
   */
  static withAllowlist(entries: readonly string[], reaching = 'image downloads'): AddressPolicy {
    return new AddressPolicy(entries.filter((entry) => entry.trim() !== '').map(parseEntry), reaching);
  }

  /** The allowlist, normalised (for logs and tests). */
  get allowlist(): string[] {
    return this.entries.map((entry) => entry.text);
  }

  check(target: ConnectionTarget): AddressVerdict {
    if (!ipaddr.isValid(target.address)) return { allowed: false, reason: 'its host did not resolve to an IP address' };
    const range = addressRange(target.address);
    if (range === 'public') return { allowed: true };
    const address = ipaddr.parse(target.address);
    const host = target.host.toLowerCase().replace(/\.$/, '');
    const allowlisted = this.entries.some((entry) => {
      if (entry.port !== null && entry.port !== target.port) return false;
      return entry.kind === 'host' ? entry.host === host : inRange(address, entry.range);
    });
    if (allowlisted) return { allowed: true };
    const what = RANGE_DESCRIPTIONS[range] ?? `a special-purpose address (${range})`;
    return { allowed: false, reason: `its host resolves to ${what}, which ${this.reaching} may not reach` };
  }
}
