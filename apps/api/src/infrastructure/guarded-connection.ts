import { promises as dns } from 'node:dns';
import { LookupFunction, isIP } from 'node:net';
import { AddressPolicy } from './address-policy';

/**
 * What every outgoing request to an integrator's URL shares (image downloads, webhook
 * deliveries): the host is resolved once, every address it resolves to must pass the address
 * policy, and the connection is pinned to the checked address.
 */

/** Resolves a host name to its addresses (the system resolver by default; tests may stand in). */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** A connection target that passed the policy: the connection goes to exactly this address. */
export interface VettedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why a target may not be reached (a refusal of ours, not a network failure). */
export class TargetRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'TargetRefused';
  }
}

/** Always answers with the vetted address, so a second DNS answer cannot switch the target (DNS rebinding). */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // The reason is the AbortSignal's DOMException (an Error): `AbortError` or `TimeoutError`.
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A short description of a failed connection (its error code when it has one). */
export function networkFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string'
    ? `the connection failed (${code})`
    : `the connection failed (${error instanceof Error ? error.message : String(error)})`;
}

/**
 * Resolves the URL's host and checks every address it resolves to against the policy; the
 * connection will use the first. Throws `TargetRefused` saying why a target may not be reached.
 */
export async function vetTarget(
  url: URL,
  policy: AddressPolicy,
  resolve: HostResolver,
  signal: AbortSignal,
): Promise<VettedTarget> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await abortable(resolve(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const code = (error as { code?: unknown }).code;
      throw new TargetRefused(
        code === 'ENOTFOUND' || code === 'ENODATA'
          ? `its host ${host} does not resolve`
          : `its host ${host} could not be resolved (${String(code ?? error)})`,
      );
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`its host ${host} does not resolve`);
  for (const { address } of addresses) {
    const verdict = policy.check({ host, port, address });
    if (!verdict.allowed) throw new TargetRefused(verdict.reason);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
