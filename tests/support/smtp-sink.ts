import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The message with its text readable (decodeMail), for finding links. */
  decoded: string;
}

/**
 * A message's headers as they came and each part's text decoded by its Content-Transfer-Encoding
 * (base64, what the mailer sends, or quoted-printable); a part ends at the next boundary line.
 */
export function decodeMail(raw: string): string {
  return raw.replace(
    /(^Content-Transfer-Encoding: (base64|quoted-printable)\r?\n(?:[^\r\n]+\r?\n)*\r?\n)([\s\S]*?)(?=^--|(?![\s\S]))/gim,
    (_, head: string, encoding: string, body: string) =>
      head +
      (encoding.toLowerCase() === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16)))),
  );
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  /** The mails to `email`, oldest first, once there are `count` of them (15 s at most, then what there is). */
  mailsTo(email: string, count?: number): Promise<ReceivedMail[]>;
  /** Holds every message at its end of data (the sender waits for the server's answer) until `release`. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  let gate: { promise: Promise<void>; open(): void } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const accept = () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, decoded: decodeMail(raw) });
          callback();
        };
        if (gate) void gate.promise.then(accept);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (email: string) => mails.filter((m) => m.to.includes(email));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async mailsTo(email, count = 1) {
      const deadline = Date.now() + 15_000;
      while (to(email).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return to(email);
    },
    hold() {
      let open = () => undefined as void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      gate = { promise, open };
    },
    release() {
      gate?.open();
      gate = null;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first `/path?token=…` link in a mail (a reset or confirmation link). */
export function tokenIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`${path}\\?token=([\\w-]+)`).exec(mail.decoded);
  if (!match) throw new Error(`no ${path} link in the mail:\n${mail.decoded}`);
  return match[1]!;
}
