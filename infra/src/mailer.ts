import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from './logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /**
   * An automatic answer to a received message (RFC 3834): marked `Auto-Submitted: auto-replied`
   * so no other robot answers it back, and threaded under the message when it had an id.
   */
  autoReply?: { inReplyTo?: string };
}

/**
 * The message as nodemailer takes it. The text goes as base64: a link is longer than the 76
 * characters quoted-printable allows a line, so there it was cut by soft line breaks and its
 * `token=` written `token=3D`, which a reader shown the raw text followed to a dead link.
 */
function envelope(from: string, { autoReply, ...message }: MailMessage) {
  const base = { from, ...message, textEncoding: 'base64' as const };
  if (!autoReply) return base;
  const thread = autoReply.inReplyTo ? { inReplyTo: autoReply.inReplyTo, references: autoReply.inReplyTo } : {};
  return { ...base, ...thread, headers: { 'Auto-Submitted': 'auto-replied' } };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * E-mail through SMTP when `smtpUrl` is set; otherwise each message is written under
 * `<dataDir>/mail/` as an .eml file and logged (the embedded default), so links in it can be
 * followed without a mail server.
 */
export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string; log: Logger }): Mailer {
  const { smtpUrl, from, dataDir, log } = options;
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send(message) {
        await transport.sendMail(envelope(from, message));
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const dir = path.resolve(dataDir, 'mail');
  return {
    async send(message) {
      const info = await transport.sendMail(envelope(from, message));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[<>@]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer);
      log.info({ to: message.to, subject: message.subject, file, text: message.text }, 'mail written (no SMTP_URL set)');
    },
  };
}
