import type { AddressInfo } from 'node:net';
import hoodiecrow from 'hoodiecrow-imap';
import { ImapFlow } from 'imapflow';

export interface ImapStandIn {
  url: string;
  user: string;
  password: string;
  /** Delivers a message into INBOX the way a mail server would, over IMAP (APPEND). */
  deliver(raw: Buffer | string): Promise<void>;
  /** INBOX as it stands: each message's flags and Message-ID. */
  inbox(): Promise<Array<{ uid: number; flags: string[]; messageId: string | undefined }>>;
  close(): Promise<void>;
}

/**
 * An IMAP4rev1 server on 127.0.0.1 (hoodiecrow, in memory, by imapflow's author), with one
 * user and an empty INBOX: the mailbox a deployment polls.
 */
export async function startImapStandIn(): Promise<ImapStandIn> {
  const user = 'intake';
  const password = 'intake-password';
  const server = hoodiecrow({ plugins: ['ID', 'UNSELECT', 'ENABLE', 'UIDPLUS'], users: { [user]: { password } }, storage: { INBOX: { messages: [] } } });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const client = () => new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false, disableAutoIdle: true });
  const session = async <T>(work: (c: ImapFlow) => Promise<T>): Promise<T> => {
    const c = client();
    await c.connect();
    try {
      return await work(c);
    } finally {
      await c.logout();
    }
  };
  return {
    url: `imap://127.0.0.1:${port}`,
    user,
    password,
    deliver: (raw) =>
      session(async (c) => {
        await c.append('INBOX', raw);
      }),
    inbox: () =>
      session(async (c) => {
        const lock = await c.getMailboxLock('INBOX');
        try {
          const out: Array<{ uid: number; flags: string[]; messageId: string | undefined }> = [];
          if ((c.mailbox && c.mailbox.exists) === 0) return out;
          for await (const m of c.fetch('1:*', { uid: true, flags: true, envelope: true })) out.push({ uid: m.uid, flags: [...(m.flags ?? [])], messageId: m.envelope?.messageId });
          return out;
        } finally {
          lock.release();
        }
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
