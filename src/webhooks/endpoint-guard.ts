// Endpoint safety (docs/decisions/webhook-delivery.md): notifications go to https URLs on public
// addresses only, and the address checked is the one actually connected to, so a public name that
// resolves to 127.0.0.1 is refused too. WEBHOOK_ALLOW_PRIVATE_TARGETS=true lifts both rules for
// local work.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['64:ff9b::', 96], // NAT64, well-known prefix (embeds IPv4, reaches what the translator reaches)
  ['64:ff9b:1::', 48], // NAT64, local-use prefix
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (embeds an obfuscated IPv4)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether an IP address is on the public internet: the one classifier of the endpoint URL check and
 * of the connect-time lookup. Forms that embed an IPv4 address and reach it (IPv4-mapped
 * ::ffff:0:0/96, 6to4 2002::/16) are judged by that IPv4; the other IPv4-embedding forms
 * (IPv4-compatible ::/96, which holds :: and ::1, IPv4-translated ::ffff:0:0:0/96, NAT64, Teredo)
 * are refused whole.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  const [g0, g1, g2, , g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const embedded = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zerosUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zerosUpTo(5) && g5 === 0xffff) return isPublicAddress(embedded(g6, g7)); // IPv4-mapped
  if (zerosUpTo(6)) return false; // IPv4-compatible, unspecified, loopback
  if (zerosUpTo(4) && g4 === 0xffff && g5 === 0) return false; // IPv4-translated
  if (g0 === 0x2002) return isPublicAddress(embedded(g1, g2)); // 6to4
  return !NOT_PUBLIC.check(address, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (a zone index is ignored). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const high = parse(head);
  const low = tail === undefined ? [] : parse(tail);
  return [...high, ...new Array<number>(8 - high.length - low.length).fill(0), ...low];
}

/** Said with every refusal that only WEBHOOK_ALLOW_PRIVATE_TARGETS lifts. */
const LOCAL_DEVELOPMENT_HINT =
  '; for local development, WEBHOOK_ALLOW_PRIVATE_TARGETS=true allows http and private addresses';

/**
 * Why an endpoint URL cannot be a subscription's, or undefined when it can. Names are only checked
 * when connecting (their addresses can change); literal addresses are checked here already, with
 * isPublicAddress, the classifier the connect-time lookup uses. The URL must also be written as it
 * is read (sentAsRead): the address stored and shown is the one notifications go to.
 */
export function endpointUrlProblem(url: string, allowPrivateTargets: boolean): string | undefined {
  // The URL parser would drop these silently, so the stored URL would not be the one used.
  if (url !== url.trim()) return 'must not begin or end with whitespace';
  if (/\p{Cc}/u.test(url)) return 'must not contain control characters (tab, CR, LF…)';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.username || parsed.password) return 'must not carry credentials; use endpointAuth';
  if (allowPrivateTargets) {
    return ['https:', 'http:'].includes(parsed.protocol) ? sentAsRead(url, parsed) : 'must be an http(s) URL';
  }
  if (parsed.protocol !== 'https:') return `must be an https URL${LOCAL_DEVELOPMENT_HINT}`;
  // A name with a trailing dot is the same name, fully qualified.
  const host = parsed.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  const local = host === 'localhost' || host.endsWith('.localhost');
  if (local || (isIP(host) && !isPublicAddress(host))) return `must be a public address${LOCAL_DEVELOPMENT_HINT}`;
  return sentAsRead(url, parsed);
}

// `scheme://authority`, the authority up to the path, query or fragment.
const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/;
// An ASCII name or IPv4 address, or a bracketed IPv6 address, then an optional port of digits (empty: the default).
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d*))?$/;

/**
 * Why `url` would be read as another address than it shows, or undefined (docs/decisions/
 * tenant-isolation.md, "Endpoint URLs"). The WHATWG parser that sends notifications forgives what a
 * reader would not: `https:example.com` and `https:/example.com` are `https://example.com/`,
 * backslashes are slashes, an invisible character in a name is dropped, `0x7f.1` is 127.0.0.1.
 * So: two slashes after the scheme, no backslash, no space or invisible character, a host the parser
 * keeps as written (letters' case aside), and a port from 1 to 65535.
 */
function sentAsRead(url: string, parsed: URL): string | undefined {
  if (/[\p{White_Space}\p{Cf}]/u.test(url)) {
    return 'must not contain spaces or invisible characters (zero-width, bidirectional controls…); percent-encode them';
  }
  if (url.includes('\\')) return 'must not contain backslashes; the address would be read with slashes';
  const authority = SCHEME_AND_AUTHORITY.exec(url)?.[1];
  if (authority === undefined || authority === '')
    return 'must start with the scheme and two slashes, as https://host/';
  const [, host = '', port] = AUTHORITY.exec(authority) ?? [];
  if (!host) {
    return 'must name its host in ASCII (an international name in its xn-- form), as an IPv4 or a bracketed IPv6 address';
  }
  const ipv6 = host.startsWith('[');
  if (!ipv6 && host.toLowerCase() !== parsed.hostname) return `must name its host as it is read: ${parsed.hostname}`;
  if (port && !(Number(port) >= 1 && Number(port) <= 65535)) return 'must have a port from 1 to 65535';
  return undefined;
}

export class PrivateAddressError extends Error {
  readonly code = 'ERR_PRIVATE_ADDRESS';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` replacement for the HTTP client's connect step: it resolves as usual, then refuses
 * any answer that is not a public address, so the socket can only open to a checked address.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      return callback(
        new PrivateAddressError(`${hostname} resolves to ${refused.address}, which is not a public address`),
        [],
      );
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new PrivateAddressError(`${hostname} has no address`), []);
    callback(null, first.address, first.family);
  });
}
