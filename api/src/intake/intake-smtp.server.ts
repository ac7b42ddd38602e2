import type { AddressInfo } from 'node:net';
import type { Logger } from '@receipts/infra';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { IntakeUnavailableError, type IntakeService } from './intake.service.js';

export interface IntakeSmtpOptions {
  host: string;
  port: number;
  domain: string;
  maxMessageBytes: number;
  log: Logger;
}

export interface IntakeSmtpServer {
  port: number;
  close(): Promise<void>;
}

/** An SMTP answer: smtp-server sends `responseCode` and the message to the client. */
function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** At most this many recipients in one message: intake addresses are personal. */
const MAX_RECIPIENTS = 20;

/**
 * The intake's own SMTP listener, for an MX record or a relay to deliver to. It takes mail only
 * for the intake domain (no relaying), at most `maxMessageBytes` (announced as SIZE, checked
 * while receiving); a message answers 250 once it is processed or refused for good, and 451
 * (try again later) when something on our side failed, so the sending server keeps it.
 */
export async function startIntakeSmtpServer(intake: IntakeService, options: IntakeSmtpOptions): Promise<IntakeSmtpServer> {
  const { domain, maxMessageBytes, log } = options;
  const server = new SMTPServer({
    name: domain,
    banner: 'Receipts intake',
    size: maxMessageBytes,
    // Receives mail for its own addresses: no sign-in, no relaying.
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // Each connection may hold one message of up to maxMessageBytes while it is processed.
    maxClients: 10,
    socketTimeout: 60_000,
    logger: false,
    onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const at = address.address.lastIndexOf('@');
      if (at < 0 || address.address.slice(at + 1).toLowerCase() !== domain) return callback(smtpError(550, '5.7.1 Relaying denied'));
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, '4.5.3 Too many recipients'));
      callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        // Past the limit nothing more is kept; the stream is read to its end to answer 552.
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          log.warn({ via: 'smtp', from: session.envelope.mailFrom && session.envelope.mailFrom.address, limit: maxMessageBytes }, 'intake message refused: too large');
          return callback(smtpError(552, `5.3.4 Message larger than ${maxMessageBytes} bytes`));
        }
        const mailFrom = session.envelope.mailFrom;
        intake
          .receive({
            raw: Buffer.concat(chunks),
            via: 'smtp',
            envelopeRecipients: session.envelope.rcptTo.map((r) => r.address),
            client: { ip: session.remoteAddress, helo: session.hostNameAppearsAs, envelopeSender: mailFrom ? mailFrom.address : '' },
          })
          .then(
            () => callback(),
            (err: unknown) => {
              if (!(err instanceof IntakeUnavailableError)) log.error({ err, via: 'smtp' }, 'intake message failed');
              callback(smtpError(451, '4.3.0 Temporary failure, please try again later'));
            },
          );
      });
    },
  });
  server.on('error', (err) => log.warn({ err: err.message }, 'intake SMTP listener error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  log.info({ port, domain }, 'intake SMTP listener started');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
