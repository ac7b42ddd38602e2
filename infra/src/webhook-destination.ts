import { lookup } from 'node:dns/promises';
import { destinationVerdict, formatIp, parseIp, webhookTarget, type IpAddress, type IpNetwork } from '@receipts/common';
import type { Config } from './config.js';

/** Where webhooks may go: the networks allowed besides the public internet, and whether plain http is refused (production). */
export interface WebhookPolicy {
  allowed: readonly IpNetwork[];
  requireHttps: boolean;
}

export function webhookPolicy(config: Pick<Config, 'WEBHOOK_ALLOWED_NETWORKS' | 'NODE_ENV'>): WebhookPolicy {
  return { allowed: config.WEBHOOK_ALLOWED_NETWORKS, requireHttps: config.NODE_ENV === 'production' };
}

/** The addresses a host name resolves to (the system's resolver: /etc/hosts, then DNS). */
export type HostResolver = (host: string) => Promise<string[]>;

/** A lookup that takes longer is a failed one: a delivery's attempt has its own time limit, and registration waits on it. */
const RESOLVE_TIMEOUT_MS = 5_000;

export const systemResolver: HostResolver = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })), RESOLVE_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
};

/** A destination refused, in words the account page shows (and the delivery log records). */
export class WebhookDestinationError extends Error {
  override name = 'WebhookDestinationError';
}

/** A checked destination: the host as the URL names it, and the one address to connect to. */
export interface WebhookDestination {
  url: URL;
  protocol: 'http:' | 'https:';
  /** The host name, or the address without brackets. */
  host: string;
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a webhook URL's host and checks every address it resolves to (destinationVerdict in
 * common): the registration and every delivery attempt ask again, since a name can be pointed
 * elsewhere at any time. The caller connects to `address`, never resolving the name again, so
 * a second answer (DNS rebinding) cannot swap in an address that was not checked.
 */
export async function resolveWebhookDestination(url: string, policy: WebhookPolicy, resolve: HostResolver = systemResolver): Promise<WebhookDestination> {
  const target = webhookTarget(url);
  if ('message' in target) throw new WebhookDestinationError(target.message);
  let addresses: IpAddress[];
  if (target.literal) addresses = [target.literal];
  else {
    const found = await resolve(target.host).catch((err: unknown) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_NONAME') return [];
      throw new WebhookDestinationError(`${target.host} could not be looked up (${code ?? (err as Error).message}).`);
    });
    addresses = found.map((a) => parseIp(a)).filter((a): a is IpAddress => a !== null);
  }
  const verdict = destinationVerdict({ ...target, addresses, allowed: policy.allowed, requireHttps: policy.requireHttps });
  if (!verdict.ok) throw new WebhookDestinationError(verdict.message);
  const first = addresses[0]!;
  const address = target.literal ? target.host : formatIp(first);
  return { url: new URL(url), protocol: target.protocol, host: target.host, address, family: first.version };
}
