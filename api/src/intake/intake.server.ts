import type { IntakeAddressFormat } from '@receipts/common';
import type { Config, IntakeRepository, Logger, Mailer } from '@receipts/infra';
import type { DNSResolver } from 'mailauth';
import type { UploadService } from '../uploads/upload.service.js';
import type { IntakeImapPoller } from './intake-imap.poller.js';
import type { IntakeSmtpServer } from './intake-smtp.server.js';

/** The intake address format when this deployment receives mail (a domain and a way in), else null. */
export function intakeFormat(config: Config): IntakeAddressFormat | null {
  if (!config.INTAKE_DOMAIN || (config.INTAKE_SMTP_PORT === undefined && !config.IMAP_URL)) return null;
  return { domain: config.INTAKE_DOMAIN, localPrefix: config.INTAKE_LOCAL_PREFIX };
}

export interface IntakeHandle {
  smtp: IntakeSmtpServer | null;
  imap: IntakeImapPoller | null;
  close(): Promise<void>;
}

/** Starts the ways mail comes in that the config names: the SMTP listener, the IMAP poller, or both. */
export async function startIntake(
  config: Config,
  format: IntakeAddressFormat,
  deps: { uploads: UploadService; intake: IntakeRepository; mailer: Mailer; log: Logger; resolver?: DNSResolver },
): Promise<IntakeHandle> {
  const log = deps.log.child({ component: 'intake' });
  // The mail stack (SMTP server, IMAP client, MIME parser, DKIM and SPF checks, the PDF of a mail's
  // body) is loaded only by the process that receives mail: the others skip ~30 MB of memory and
  // ~0.3 s of start-up each.
  const [{ IntakeService }, { MailReader }, { startIntakeSmtpServer }, { IntakeImapPoller }, { boundedResolver }] = await Promise.all([
    import('./intake.service.js'),
    import('./mail.reader.js'),
    import('./intake-smtp.server.js'),
    import('./intake-imap.poller.js'),
    import('./sender-auth.js'),
  ]);
  const reader = new MailReader({
    maxAttachments: config.INTAKE_MAX_ATTACHMENTS,
    timeoutMs: config.INTAKE_READ_TIMEOUT_MS,
    maxHeapMb: config.INTAKE_READ_MAX_HEAP_MB,
    log,
  });
  const service = new IntakeService({
    uploads: deps.uploads,
    intake: deps.intake,
    mailer: deps.mailer,
    format,
    maxAttachments: config.INTAKE_MAX_ATTACHMENTS,
    adminEmails: config.ADMIN_EMAILS,
    reader,
    resolver: deps.resolver ?? boundedResolver(),
    log,
  });
  const smtp =
    config.INTAKE_SMTP_PORT === undefined
      ? null
      : await startIntakeSmtpServer(service, {
          host: config.INTAKE_SMTP_HOST,
          port: config.INTAKE_SMTP_PORT,
          domain: format.domain,
          maxMessageBytes: config.INTAKE_MAX_MESSAGE_BYTES,
          limits: {
            maxConnections: config.INTAKE_SMTP_MAX_CONNECTIONS,
            maxConnectionsPerAddress: config.INTAKE_SMTP_MAX_CONNECTIONS_PER_ADDRESS,
            idleTimeoutMs: config.INTAKE_SMTP_IDLE_TIMEOUT_MS,
            maxSessionMs: config.INTAKE_SMTP_MAX_SESSION_MS,
          },
          log,
        });
  const imap = config.IMAP_URL
    ? new IntakeImapPoller(service, {
        url: config.IMAP_URL,
        user: config.IMAP_USER,
        password: config.IMAP_PASSWORD,
        mailbox: config.IMAP_MAILBOX,
        pollMs: config.IMAP_POLL_MS,
        after: config.IMAP_AFTER_PROCESSING,
        setAsideMailbox: config.IMAP_SET_ASIDE_MAILBOX,
        maxMessageBytes: config.INTAKE_MAX_MESSAGE_BYTES,
        log,
      })
    : null;
  if (imap) {
    log.info({ mailbox: config.IMAP_MAILBOX, pollMs: config.IMAP_POLL_MS }, 'intake mailbox polling started');
    imap.start();
  }
  return {
    smtp,
    imap,
    async close() {
      await Promise.all([smtp?.close(), imap?.close()]);
      await reader.close();
    },
  };
}
