import { Readable } from 'node:stream';
import { MAX_UPLOAD_BYTES, sniffMimeType, type AcceptedMime, type IntakeRefusal } from '@receipts/common';
import { MailParser, type AddressObject, type AttachmentStream, type Headers, type MessageText } from 'mailparser';

export interface ParsedAttachment {
  filename: string | undefined;
  mimeType: AcceptedMime | null;
  /** Its full size; `content` stops one byte past the upload limit, which is enough to refuse it. */
  size: number;
  content: Buffer;
  related: boolean;
}

/** What the headers say: enough to answer a message refused before its body was read. */
export interface MessageHead {
  messageId: string | null;
  subject: string;
  /** The From address (the first one). */
  from: string | null;
  /** Addresses the message names as its recipients: Delivered-To, X-Original-To, To and Cc. */
  recipients: string[];
  /** Marked automatic (`Auto-Submitted`, `Precedence: bulk/list/junk`): never answered. */
  automatic: boolean;
}

export interface ParsedMessage extends MessageHead {
  attachments: ParsedAttachment[];
  text: string | null;
  html: string | null;
}

/** A message refused as a whole while it was read; nothing of it was kept. */
export class MessageRefusedError extends Error {
  constructor(
    readonly refusal: Extract<IntakeRefusal, 'unreadable' | 'too-many-attachments' | 'too-complex'>,
    detail: string,
    /** The headers, when they were read before the refusal. */
    readonly head: MessageHead | null = null,
  ) {
    super(detail);
  }
}

/** An HTML body longer than this is not turned into text (it is no e-receipt, and the conversion's time grows with it). */
const MAX_HTML_CHARS = 2_000_000;

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const out: string[] = [];
  const visit = (list: AddressObject['value']) => {
    for (const entry of list) {
      if (entry.address) out.push(entry.address.toLowerCase());
      if (entry.group) visit(entry.group);
    }
  };
  for (const object of [value ?? []].flat()) visit(object.value);
  return out;
}

/** An address header mailparser may have parsed (Delivered-To) or left as text (X-Original-To), once or repeated. */
function headerAddresses(headers: Headers, name: string): string[] {
  return [headers.get(name) ?? []].flat().flatMap((value) => {
    if (typeof value === 'string') return value.split(',').map((s) => s.replace(/^.*</, '').replace(/>.*$/, '').trim().toLowerCase()).filter((s) => s.includes('@'));
    if (value && typeof value === 'object' && 'value' in value && Array.isArray(value.value)) return addresses(value as AddressObject);
    return [];
  });
}

function isAutomatic(headers: Headers): boolean {
  const submitted = String(headers.get('auto-submitted') ?? 'no').toLowerCase();
  const precedence = String(headers.get('precedence') ?? '').toLowerCase();
  return !submitted.startsWith('no') || ['bulk', 'list', 'junk'].includes(precedence);
}

/** Reads an attachment's content, keeping no more than one byte past the upload limit. */
async function readBounded(attachment: AttachmentStream): Promise<{ content: Buffer; size: number }> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let size = 0;
  for await (const chunk of attachment.content as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (kept <= MAX_UPLOAD_BYTES) {
      const piece = chunk.subarray(0, MAX_UPLOAD_BYTES + 1 - kept);
      chunks.push(piece);
      kept += piece.length;
    }
  }
  return { content: Buffer.concat(chunks), size };
}

/**
 * Parses a raw message with mailparser's streaming parser, bounded: at most `maxAttachments`
 * attachments (the parse stops at the next one), a MIME tree of a bounded number of parts, and
 * no attachment held past the upload limit. The message itself is bounded by the caller (the
 * SMTP listener's SIZE, the IMAP poller's size check).
 */
export async function parseMessage(raw: Buffer, limits: { maxAttachments: number }): Promise<ParsedMessage> {
  const parser = new MailParser({
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    checksumAlgo: false,
    // Every attachment is a part, and each multipart one more: past this the message cannot be
    // within the limit. The splitter counts parts ahead of the attachments it hands over, so a
    // message with too many attachments usually meets this bound first (nesting bombs too).
    maxChildNodes: limits.maxAttachments * 2 + 50,
    maxHeadSize: 256 * 1024,
  });
  let headers: Headers = new Map();
  parser.on('headers', (h) => (headers = h));
  const attachments: ParsedAttachment[] = [];
  let text: MessageText | null = null;
  let tooMany = false;

  const done = new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('end', resolve);
  });
  parser.on('data', (data: AttachmentStream | MessageText) => {
    if (data.type === 'text') {
      text = data;
      return;
    }
    if (attachments.length >= limits.maxAttachments) {
      tooMany = true;
      // Stop reading: nothing past the limit is kept, and the parse ends here.
      parser.destroy(new Error(`more than ${limits.maxAttachments} attachments`));
      return;
    }
    readBounded(data).then(
      ({ content, size }) => {
        attachments.push({
          filename: data.filename,
          mimeType: sniffMimeType(content),
          size,
          content,
          related: Boolean(data.related),
        });
        data.release?.();
      },
      (err: unknown) => parser.destroy(err as Error),
    );
  });
  Readable.from([raw]).pipe(parser);
  const head = (): MessageHead | null =>
    headers.size === 0
      ? null
      : {
          messageId: parser.messageId ?? null,
          subject: parser.subject ?? '',
          from: addresses(parser.from)[0] ?? null,
          recipients: [
            ...new Set([...headerAddresses(headers, 'delivered-to'), ...headerAddresses(headers, 'x-original-to'), ...addresses(parser.to), ...addresses(parser.cc)]),
          ],
          automatic: isAutomatic(headers),
        };
  try {
    await done;
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    const tooManyParts = tooMany || ((err as { code?: string })?.code === 'EMAXLEN' && /child nodes/i.test(message));
    throw new MessageRefusedError(tooManyParts ? 'too-many-attachments' : 'unreadable', message, head());
  }
  const body = text as MessageText | null;
  const html = typeof body?.html === 'string' && body.html.length <= MAX_HTML_CHARS ? body.html : null;
  return {
    ...(head() ?? { messageId: null, subject: '', from: null, recipients: [], automatic: false }),
    attachments,
    text: typeof body?.text === 'string' ? body.text : null,
    html,
  };
}
