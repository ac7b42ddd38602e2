import { createHash, randomUUID } from 'node:crypto';
import {
  intakeFilename,
  intakeReply,
  isEmailVerified,
  planIntake,
  replyAddress,
  tokenOfAddress,
  type IntakeAddressFormat,
  type IntakeRefusal,
  type WorkspaceScope,
} from '@receipts/common';
import type { IntakeRepository, Logger, Mailer } from '@receipts/infra';
import type { DNSResolver } from 'mailauth';
import { HttpError } from '../http-error.js';
import type { IncomingFile, UploadService } from '../uploads/upload.service.js';
import { pageLines, renderTextPdf } from './mail-body.renderer.js';
import { MessageRefusedError, type MessageHead } from './mail.parser.js';
import type { MailReader, ReadMessage } from './mail.reader.js';
import { senderEvidence, type SmtpClient } from './sender-auth.js';

export interface IncomingMail {
  raw: Buffer;
  via: 'smtp' | 'imap';
  /** The envelope's recipients (SMTP); without them (IMAP) the message's own headers name them. */
  envelopeRecipients: string[] | null;
  client: SmtpClient | null;
}

/** Something on our side failed (the queue, the database): nothing of the message was kept, so it can come again. */
export class IntakeUnavailableError extends Error {}

type Refusals = Array<{ part: string; refusal: IntakeRefusal }>;

/** What one message became for one account. */
export interface AccountOutcome {
  userId: string;
  uploadIds: string[];
  refusals: Refusals;
  /** Received before (same Message-ID): nothing done. */
  duplicate: boolean;
}

export interface IntakeOutcome {
  /** The message as a whole was refused. */
  refused?: IntakeRefusal;
  accounts: AccountOutcome[];
  /** Where refusals were answered; empty when there was nothing to answer or no proven sender to answer to. */
  repliedTo: string[];
}

export interface IntakeServiceDeps {
  uploads: UploadService;
  intake: IntakeRepository;
  mailer: Mailer;
  format: IntakeAddressFormat;
  maxAttachments: number;
  /** Who counts as confirmed depends on them (an admin address must prove itself). */
  adminEmails: readonly string[];
  /** Reads each message off the event loop, bounded in time and memory. */
  reader: MailReader;
  resolver: DNSResolver;
  log: Logger;
}

/**
 * Mail to an intake address becomes uploads of its account, through the same upload service as
 * the HTTP route (quota, lane, duplicates, live progress). A message is read whole and judged
 * before anything is written; it is taken once per account (its Message-ID), and either all of
 * its uploads are written or none. Refusals are answered only to a sender proven by DKIM or SPF.
 */
export class IntakeService {
  constructor(private readonly deps: IntakeServiceDeps) {}

  async receive(mail: IncomingMail): Promise<IntakeOutcome> {
    const reference = `intake-${randomUUID()}`;
    const log = this.deps.log.child({ requestId: reference, via: mail.via });
    let message: ReadMessage;
    try {
      message = await this.deps.reader.read(mail.raw);
    } catch (err) {
      if (!(err instanceof MessageRefusedError)) throw err;
      log.warn({ refusal: err.refusal, detail: err.message, messageId: err.head?.messageId }, 'intake message refused');
      const repliedTo = err.head ? await this.reply(mail, err.head, [{ part: '', refusal: err.refusal }], 0, log) : [];
      return { refused: err.refusal, accounts: [], repliedTo };
    }
    return this.deliver(mail, message, { log, reference });
  }

  private async deliver(mail: IncomingMail, message: ReadMessage, { log, reference }: { log: Logger; reference: string }): Promise<IntakeOutcome> {
    const { intake, format } = this.deps;
    const tokens = new Set<string>();
    for (const address of mail.envelopeRecipients ?? message.recipients) {
      const token = tokenOfAddress(address, format);
      if (token) tokens.add(token);
    }
    // Each member's address into each workspace: the same message to two of them is two deliveries.
    const recipients = new Map<string, { userId: string; workspace: WorkspaceScope }>();
    let unconfirmed = 0;
    for (const token of tokens) {
      const account = await intake.accountOf(token);
      if (!account) continue;
      // Over HTTP an unconfirmed account shares its allowance with its address; mail has no such
      // address, so throwaway accounts would each get a day's receipts: mail waits for confirmation.
      if (isEmailVerified(account, this.deps.adminEmails)) {
        const workspace = { id: account.workspaceId, role: account.role, personal: account.workspaceId === account.userId };
        recipients.set(`${account.userId}/${account.workspaceId}`, { userId: account.userId, workspace });
      }
      else unconfirmed++;
    }
    if (recipients.size === 0) {
      const refusal = unconfirmed > 0 ? 'unconfirmed' : 'unknown-address';
      log.warn({ messageId: message.messageId, refusal, recipients: (mail.envelopeRecipients ?? message.recipients).slice(0, 10) }, 'intake message refused: no intake address of a confirmed account');
      const repliedTo = await this.reply(mail, message, [{ part: '', refusal }], 0, log);
      return { refused: refusal, accounts: [], repliedTo };
    }

    const { body } = message;
    const plan = planIntake(
      message.attachments.map((a, i) => ({ filename: intakeFilename(a.filename, `attachment-${i + 1}`), mimeType: a.mimeType, size: a.size, related: a.related })),
      body,
      { maxAttachments: this.deps.maxAttachments },
    );
    if ('refused' in plan) {
      log.warn({ messageId: message.messageId, refusal: plan.refused, attachments: message.attachments.length }, 'intake message refused');
      const repliedTo = await this.reply(mail, message, [{ part: '', refusal: plan.refused }], 0, log);
      return { refused: plan.refused, accounts: [], repliedTo };
    }
    for (const ignored of plan.ignored) log.info({ messageId: message.messageId, filename: ignored.filename, mimeType: ignored.mimeType }, 'intake attachment left out: not a receipt file');

    const files: IncomingFile[] = [];
    for (const part of plan.parts) {
      if (part.source === 'attachment') {
        const attachment = message.attachments[part.index]!;
        files.push({ originalname: intakeFilename(attachment.filename, `attachment-${part.index + 1}`), buffer: attachment.content });
      } else {
        const pdf = await renderTextPdf(pageLines(body ?? ''), message.subject);
        files.push({ originalname: `${intakeFilename(message.subject, 'e-mail receipt').replace(/\.pdf$/i, '')}.pdf`, buffer: pdf });
      }
    }

    const key = messageKey(message, mail.raw);
    const accounts: AccountOutcome[] = [];
    const repliedTo: string[] = [];
    const refused = plan.refusedAttachments.map((r) => ({ part: r.filename, refusal: r.refusal }));
    for (const { userId, workspace } of recipients.values()) {
      const account = await this.deliverTo(userId, workspace, key, files, refused, { log: log.child({ userId, messageId: message.messageId }), reference });
      accounts.push(account);
      if (account.refusals.length > 0) repliedTo.push(...(await this.reply(mail, message, account.refusals, account.uploadIds.length, log)));
    }
    return { accounts, repliedTo };
  }

  /** The message's uploads for one account: all written, or none (and the claim released, so it can come again). */
  private async deliverTo(
    userId: string,
    workspace: WorkspaceScope,
    messageKey: string,
    files: readonly IncomingFile[],
    refused: Refusals,
    { log, reference }: { log: Logger; reference: string },
  ): Promise<AccountOutcome> {
    const { intake, uploads } = this.deps;
    const owner = { userId, anonId: null, clientIp: null, workspace };
    // A message is taken once per workspace it was sent into (the personal one keeps its keys of before).
    const key = workspace.personal ? messageKey : `${workspace.id}/${messageKey}`;
    if (!(await intake.claimMessage(userId, key))) {
      log.info('intake message received before; not processed again');
      return { userId, uploadIds: [], refusals: [], duplicate: true };
    }
    const uploadIds: string[] = [];
    const refusals: Refusals = [...refused];
    try {
      for (const file of files) {
        try {
          uploadIds.push((await uploads.create(owner, file, undefined, { requestId: reference })).id);
        } catch (err) {
          if (!(err instanceof HttpError && err.code === 'QUOTA_EXCEEDED')) throw err;
          refusals.push({ part: file.originalname, refusal: 'over-quota' });
        }
      }
      // A mail is taken whole: a part whose file could not be stored sends the message back to be delivered again.
      for (const id of uploadIds) {
        if (!(await uploads.stored(id))) throw new Error(`the original of upload ${id} could not be stored`);
      }
      await intake.recordMessage(userId, key, { uploads: uploadIds.length, refusals });
    } catch (err) {
      log.error({ err, written: uploadIds.length }, 'intake message not taken: its uploads are withdrawn, it can come again');
      for (const id of uploadIds) {
        await uploads.remove(owner, id).catch((e: unknown) => log.error({ err: e, uploadId: id }, 'intake upload could not be withdrawn'));
      }
      await intake.releaseMessage(userId, key).catch((e: unknown) => log.error({ err: e }, 'intake message claim could not be released'));
      throw new IntakeUnavailableError('The message could not be processed right now.');
    }
    for (const r of refusals) log.info({ part: r.part, refusal: r.refusal }, 'intake part refused');
    log.info({ uploads: uploadIds.length, refused: refusals.length }, 'intake message processed');
    return { userId, uploadIds, refusals, duplicate: false };
  }

  /** Answers a refusal, only to a sender proven by DKIM or SPF; failures to check or send are logged, never retried. */
  private async reply(mail: IncomingMail, head: MessageHead, refusals: Refusals, accepted: number, log: Logger): Promise<string[]> {
    try {
      const evidence = await senderEvidence(mail.raw, head, mail.client, this.deps.resolver);
      const to = replyAddress(evidence);
      if (!to) {
        log.info({ from: head.from, dkim: evidence.dkim, spf: evidence.spf, automatic: evidence.automatic }, 'intake refusal not answered: sender not proven');
        return [];
      }
      const { subject, text } = intakeReply(head.subject, refusals, accepted);
      await this.deps.mailer.send({ to, subject, text, autoReply: { inReplyTo: head.messageId ?? undefined } });
      log.info({ to, refusals: refusals.map((r) => r.refusal) }, 'intake refusal answered');
      return [to];
    } catch (err) {
      log.warn({ err }, 'intake refusal not answered: checking the sender or sending failed');
      return [];
    }
  }
}

/**
 * What makes a message the same message when it comes again: its Message-ID, or without one,
 * its content below the headers (a relay adds headers on the way, never changes the body).
 */
export function messageKey(message: Pick<MessageHead, 'messageId'>, raw: Buffer): string {
  const hash = createHash('sha256');
  if (message.messageId) hash.update(`id:${message.messageId.trim()}`);
  else {
    const end = raw.indexOf('\r\n\r\n');
    hash.update('body:').update(end < 0 ? raw : raw.subarray(end + 4));
  }
  return hash.digest('hex');
}
