import { fileTypeList, MAX_UPLOAD_BYTES, type AcceptedMime } from './file-type.js';
import { isReceiptText } from './extraction/receipt-text.rule.js';

/**
 * E-mail intake: the rules that turn a received message into uploads, pure. The mail itself is
 * parsed, stored and answered in api/src/intake/.
 */

/** What an attachment may be to become an upload: the list. GIF is left out: in mail it is logos and spacers. */
export const INTAKE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/tiff', 'application/pdf'] as const satisfies readonly AcceptedMime[];

/** Letters of an intake token: lower-case base32, so a relay that folds the case of a local part changes nothing. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** 24 base32 letters: 120 random bits, beyond guessing. */
export const INTAKE_TOKEN_LENGTH = 24;
const TOKEN = new RegExp(`^[${BASE32}]{${INTAKE_TOKEN_LENGTH}}$`);

/** An intake token from 15 random bytes (the caller brings the randomness). */
export function intakeToken(random: Uint8Array): string {
  if (random.length * 8 < INTAKE_TOKEN_LENGTH * 5) throw new Error(`an intake token needs ${Math.ceil((INTAKE_TOKEN_LENGTH * 5) / 8)} random bytes`);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of random) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < INTAKE_TOKEN_LENGTH) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

export interface IntakeAddressFormat {
  /** The domain mail for intake is received at. */
  domain: string;
  /** Put before the token in the local part (`receipts+` for a mailbox that takes plus-addressing). */
  localPrefix: string;
}

export function intakeAddress(token: string, format: IntakeAddressFormat): string {
  return `${format.localPrefix}${token}@${format.domain}`.toLowerCase();
}

/** The token an address carries, or null when it is not an intake address of this deployment. */
export function tokenOfAddress(address: string, format: IntakeAddressFormat): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0) return null;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  const prefix = format.localPrefix.toLowerCase();
  if (domain !== format.domain.toLowerCase() || !local.startsWith(prefix)) return null;
  const token = local.slice(prefix.length);
  return TOKEN.test(token) ? token : null;
}

export interface IntakeLimits {
  /** Attachments a message may carry at most; more and the whole message is refused. */
  maxAttachments: number;
}

/** An attachment as the parser saw it. */
export interface MailAttachment {
  filename: string;
  /** Sniffed from its bytes; null when it is none of the accepted types. */
  mimeType: AcceptedMime | null;
  size: number;
  /** Part of the HTML body (multipart/related, a `cid:` image): a logo, never a receipt. */
  related: boolean;
}

/** Why a part of a message (or all of it) did not become an upload. */
export type IntakeRefusal =
  | 'unknown-address'
  | 'unconfirmed'
  | 'unreadable'
  | 'too-large'
  | 'too-many-attachments'
  | 'too-complex'
  | 'no-receipt'
  | 'attachment-too-large'
  | 'over-quota';

/** What the sender reads for each refusal (the reply mail), and what the log line says. */
export const INTAKE_REFUSAL_TEXTS: Record<IntakeRefusal, string> = {
  'unknown-address': 'This address does not accept receipts. It may have been turned off; the address shown on your dashboard is the one to use.',
  unconfirmed: "This account's e-mail address is not confirmed yet. Follow the link we mailed to it, then send the receipts again.",
  unreadable: 'The message could not be read.',
  'too-large': 'The message is larger than we accept.',
  'too-many-attachments': 'The message has more attachments (or parts) than we accept in one message. Send them in smaller groups.',
  'too-complex': 'The message is built in a way we do not read (too many elements, too deeply nested, or tables too large). Forward the receipt as an attachment instead.',
  'no-receipt': `We found no receipt in the message: attach a ${fileTypeList(INTAKE_MIME_TYPES)} file, or forward the e-mail receipt itself.`,
  'attachment-too-large': 'The file is larger than the 10MB limit.',
  'over-quota': 'Your receipt limit is used up, so this one was not processed.',
};

export type IntakePart = { source: 'attachment'; index: number } | { source: 'body' };

export type IntakePlan =
  | { refused: IntakeRefusal }
  | {
      parts: IntakePart[];
      /** Attachments the sender meant as receipts that cannot be taken (named in the reply). */
      refusedAttachments: Array<{ filename: string; refusal: IntakeRefusal }>;
      /** Attachments that are no receipt (logos, calendar files, archives): left out without a word. */
      ignored: Array<{ filename: string; mimeType: AcceptedMime | null }>;
    };

/** Control characters (but line breaks and tabs) and U+FFFD, the marks of bytes that are not text. */
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/g;

/** Whether a body is text someone wrote, rather than binary bytes read as text (at most 1 in 100 characters amiss). */
export function isReadableText(text: string): boolean {
  return (text.match(NOT_TEXT)?.length ?? 0) <= text.length / 100;
}

/**
 * Which parts of a message become uploads: every attachment of an accepted type, one upload
 * each; when there is none, the body itself if it reads as a receipt (an e-receipt). An
 * attachment beside the body means the body is a cover note, so the body is left out then.
 */
export function planIntake(attachments: readonly MailAttachment[], bodyText: string | null, limits: IntakeLimits): IntakePlan {
  if (attachments.length > limits.maxAttachments) return { refused: 'too-many-attachments' };
  const parts: IntakePart[] = [];
  const refusedAttachments: Array<{ filename: string; refusal: IntakeRefusal }> = [];
  const ignored: Array<{ filename: string; mimeType: AcceptedMime | null }> = [];
  attachments.forEach((attachment, index) => {
    const accepted = attachment.mimeType !== null && (INTAKE_MIME_TYPES as readonly string[]).includes(attachment.mimeType);
    if (!accepted || attachment.related || attachment.size === 0) ignored.push({ filename: attachment.filename, mimeType: attachment.mimeType });
    else if (attachment.size > MAX_UPLOAD_BYTES) refusedAttachments.push({ filename: attachment.filename, refusal: 'attachment-too-large' });
    else parts.push({ source: 'attachment', index });
  });
  if (parts.length === 0 && refusedAttachments.length === 0) {
    if (bodyText !== null && isReadableText(bodyText) && isReceiptText(bodyText)) parts.push({ source: 'body' });
    else return { refused: 'no-receipt' };
  }
  return { parts, refusedAttachments, ignored };
}

// The characters a stored name may not carry (they cannot be shown, a NUL cannot be stored) and path separators.
const UNSAFE_NAME = /[\u0000-\u001f\u007f/\\]/g;

/** A name to store an attachment under: no control characters or path separators, at most 200 characters. */
export function intakeFilename(name: string | undefined, fallback: string): string {
  const cleaned = (name ?? '').replace(UNSAFE_NAME, '_').trim().slice(0, 200);
  return cleaned || fallback;
}

/** The outcome of a signature or sender-address check, as mailauth reports it. */
export type AuthStatus = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror' | 'policy';

/**
 * A DKIM signature's or SPF check's result for the message. `aligned`: its domain and the From
 * domain have one organizational domain (DMARC relaxed alignment, by the Public Suffix List). The
 * api judges that (sender-auth.ts), where the list is: it stays out of the web bundle, which shares this file.
 */
export interface AuthResult {
  domain: string;
  status: AuthStatus;
  aligned: boolean;
}

export interface SenderEvidence {
  /** The From header's address: where a reply would go. */
  from: string | null;
  /** The envelope sender (MAIL FROM); empty for a bounce. Unknown for mail read from a mailbox. */
  envelopeSender?: string | null;
  spf?: AuthResult | null;
  dkim: AuthResult[];
  /** `Auto-Submitted` other than `no`, or `Precedence: bulk/list/junk`: an automatic message. */
  automatic: boolean;
}

/**
 * Whether a refusal may be answered by mail: only to a sender proven by a DKIM signature or an
 * SPF pass aligned with the From domain, never to a bounce or another robot. Anything less
 * (a forged sender, DNS that did not answer) gets no reply, so we send no backscatter.
 */
export function replyAddress(evidence: SenderEvidence): string | null {
  const { from } = evidence;
  if (!from || !from.includes('@') || evidence.automatic) return null;
  if (evidence.envelopeSender === '') return null;
  const proves = (result: AuthResult | null | undefined) => result?.status === 'pass' && result.aligned;
  return evidence.dkim.some(proves) || proves(evidence.spf) ? from : null;
}

/** The answer to a sender whose message (or part of it) was refused. */
export function intakeReply(subject: string, refusals: ReadonlyArray<{ part: string; refusal: IntakeRefusal }>, accepted: number): { subject: string; text: string } {
  const lines = refusals.map((r) => (r.part ? `- ${r.part}: ${INTAKE_REFUSAL_TEXTS[r.refusal]}` : `- ${INTAKE_REFUSAL_TEXTS[r.refusal]}`));
  const taken = accepted === 0 ? 'Nothing from it is being processed.' : `${accepted} receipt${accepted === 1 ? ' is' : 's are'} being processed; you will find ${accepted === 1 ? 'it' : 'them'} on your dashboard.`;
  const named = subject.trim() ? `"${subject.trim().slice(0, 200)}"` : 'without a subject';
  return {
    subject: `Not processed: ${subject.trim().slice(0, 200) || 'your message'}`,
    text: `We received your message ${named}, but could not process all of it:\n\n${lines.join('\n')}\n\n${taken}\n\nThis is an automatic answer.`,
  };
}
