import type { Config } from '@receipts/infra';
import type { Request } from 'express';

/** A host name or address with an optional port: nothing that could carry a path or credentials. */
const PLAIN_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * What links in the mails a request causes start with: PUBLIC_URL when it is set; otherwise the
 * origin the request came in at, so a page opened at a LAN address gets links that work there
 * instead of localhost's. Express reads X-Forwarded-Proto and X-Forwarded-Host only from a proxy
 * TRUST_PROXY trusts, the Host header otherwise.
 *
 * Not in production: whoever asks for a reset link chooses the Host of their own request, so
 * without PUBLIC_URL a stranger could have another person's reset link point at the stranger's
 * server. There, and for a host that is not plain, links take the default (`publicUrl`).
 */
export function linkBase(req: Request, config: Pick<Config, 'PUBLIC_URL' | 'publicUrl' | 'NODE_ENV'>): string {
  if (config.PUBLIC_URL || config.NODE_ENV === 'production') return config.publicUrl;
  const { host, protocol } = req;
  if (!host || !PLAIN_HOST.test(host) || (protocol !== 'http' && protocol !== 'https')) return config.publicUrl;
  return `${protocol}://${host.toLowerCase()}`;
}
