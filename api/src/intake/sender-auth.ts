import { promises as dns } from 'node:dns';
import type { AuthStatus, SenderEvidence } from '@receipts/common';
import { dkimVerify, spf, type DNSResolver } from 'mailauth';

/** How the message reached us: the SMTP client's address and names, when it came over SMTP. */
export interface SmtpClient {
  ip: string;
  helo: string;
  /** MAIL FROM; empty for a bounce. */
  envelopeSender: string;
}

/**
 * DNS for the checks, each question bounded (3 s, 2 tries): DNS that does not answer makes the
 * checks end in temperror, which means no reply.
 */
export function boundedResolver(): DNSResolver {
  const resolver = new dns.Resolver({ timeout: 3000, tries: 2 });
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
}

/**
 * Checks who really sent a message: its DKIM signatures, and SPF for the SMTP client when the
 * message came over SMTP (a message read from a mailbox has no client we saw, so DKIM alone).
 * The verdict on replying is `replyAddress` in common.
 */
export async function senderEvidence(
  raw: Buffer,
  message: { from: string | null; automatic: boolean },
  client: SmtpClient | null,
  resolver: DNSResolver,
): Promise<SenderEvidence> {
  const dkim = await dkimVerify(raw, { resolver, sender: client?.envelopeSender || undefined });
  const spfResult = client?.envelopeSender
    ? await spf({ ip: client.ip, helo: client.helo, sender: client.envelopeSender, resolver, mta: 'receipts-intake' })
    : null;
  return {
    from: message.from,
    envelopeSender: client ? client.envelopeSender : null,
    dkim: (dkim.results ?? []).map((r) => ({ domain: r.signingDomain ?? '', status: r.status.result as AuthStatus })),
    spf: spfResult ? { domain: spfResult.domain, status: spfResult.status.result as AuthStatus } : null,
    automatic: message.automatic,
  };
}
