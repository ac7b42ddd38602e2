import type { Logger } from '@receipts/infra';
import { ImapFlow } from 'imapflow';
import { IntakeUnavailableError, type IntakeService } from './intake.service.js';

export interface IntakeImapOptions {
  /** imap://host:143 or imaps://host:993; credentials here or in `user` / `password`. */
  url: string;
  user?: string;
  password?: string;
  mailbox: string;
  pollMs: number;
  /** What becomes of a handled message: flagged \Seen, or deleted and expunged. */
  after: 'seen' | 'delete';
  /** Where a message that cannot be read is moved; unset: flagged and left. */
  setAsideMailbox?: string;
  maxMessageBytes: number;
  log: Logger;
}

/** Messages taken in one poll; the rest wait for the next, so one poll stays short. */
const MAX_PER_POLL = 50;
/** Polls in a row a message may fail in an unforeseen way before it is set aside. */
const MAX_FAILED_TRIES = 3;

/**
 * Polls an IMAP mailbox for intake mail (for deployments that already receive it somewhere):
 * every unseen message is read (without marking it), handed to the intake, and then marked
 * \Seen or deleted. A message that could not be processed for a reason on our side stays
 * unseen for the next poll; one over the size limit is never fetched. A message that cannot be
 * read (too complex, or failing the same unforeseen way three polls in a row) is set aside for the
 * operator, and the poll goes on: one poisoned message must not stop everyone's mail. Several api processes may
 * poll the same mailbox: a message is taken once per account whoever reads it (Message-ID).
 */
export class IntakeImapPoller {
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<unknown> | null = null;
  private stopped = false;
  /** Unforeseen failures by message (its UID), since it last failed in a way that was not ours. */
  private readonly failedTries = new Map<number, number>();

  constructor(
    private readonly intake: IntakeService,
    private readonly options: IntakeImapOptions,
  ) {}

  start(): void {
    const tick = () => {
      this.polling = this.poll()
        .catch((err: unknown) => this.options.log.warn({ err: (err as Error).message, via: 'imap' }, 'intake mailbox poll failed; the next one tries again'))
        .finally(() => {
          this.polling = null;
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollMs);
        });
    };
    tick();
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
  }

  /** One pass over the mailbox; how many messages were handled. */
  async poll(): Promise<number> {
    const { url, user, password, mailbox, log } = this.options;
    const address = new URL(url);
    const secure = address.protocol === 'imaps:';
    const client = new ImapFlow({
      host: address.hostname,
      port: Number(address.port) || (secure ? 993 : 143),
      secure,
      auth: { user: user ?? decodeURIComponent(address.username), pass: password ?? decodeURIComponent(address.password) },
      logger: false,
      disableAutoIdle: true,
      connectionTimeout: 30_000,
      socketTimeout: 120_000,
    });
    client.on('error', (err: Error) => log.warn({ err: err.message, via: 'imap' }, 'intake mailbox connection error'));
    await client.connect();
    let handled = 0;
    try {
      const lock = await client.getMailboxLock(mailbox);
      try {
        const uids = (await client.search({ seen: false }, { uid: true })) || [];
        for (const uid of uids.slice(0, MAX_PER_POLL)) {
          if (this.stopped || !(await this.take(client, uid))) break;
          handled++;
        }
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => client.close());
    }
    return handled;
  }

  /** Handles one message; false when the service cannot take mail right now (the rest waits). */
  private async take(client: ImapFlow, uid: number): Promise<boolean> {
    const { log, maxMessageBytes } = this.options;
    const meta = await client.fetchOne(String(uid), { size: true }, { uid: true });
    if (!meta) return true;
    if ((meta.size ?? 0) > maxMessageBytes) {
      log.warn({ via: 'imap', uid, size: meta.size, limit: maxMessageBytes }, 'intake message refused: too large');
      await this.handled(client, uid);
      return true;
    }
    const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
    if (!message || !message.source) return true;
    let outcome;
    try {
      outcome = await this.intake.receive({ raw: message.source, via: 'imap', envelopeRecipients: null, client: null });
    } catch (err) {
      if (err instanceof IntakeUnavailableError) return false;
      // Unforeseen: a passing fault (it stays unseen and the poll ends) until it fails the same way
      // MAX_FAILED_TRIES times; then it is this message's, and it must not hold the mailbox up.
      const tries = (this.failedTries.get(uid) ?? 0) + 1;
      if (tries < MAX_FAILED_TRIES) {
        this.failedTries.set(uid, tries);
        log.error({ err, via: 'imap', uid, tries }, 'intake message failed; it stays unseen for the next poll');
        return false;
      }
      this.failedTries.delete(uid);
      log.error({ err, via: 'imap', uid, tries }, 'intake message failed again; it is set aside');
      await this.setAside(client, uid);
      return true;
    }
    this.failedTries.delete(uid);
    if (outcome.refused === 'too-complex') await this.setAside(client, uid);
    else await this.handled(client, uid);
    return true;
  }

  private async setAside(client: ImapFlow, uid: number): Promise<void> {
    const { setAsideMailbox, log } = this.options;
    if (setAsideMailbox) await client.messageMove(String(uid), setAsideMailbox, { uid: true });
    else await client.messageFlagsAdd(String(uid), ['\\Seen', '\\Flagged'], { uid: true });
    log.warn({ via: 'imap', uid, to: setAsideMailbox ?? 'flagged in place' }, 'intake message set aside');
  }

  private async handled(client: ImapFlow, uid: number): Promise<void> {
    if (this.options.after === 'delete') await client.messageDelete(String(uid), { uid: true });
    else await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
  }
}
