import type { AddressInfo } from 'node:net';
import { INTAKE_SMTP_LIMITS, type Logger } from '@receipts/infra';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { clientNetwork } from '../client-network.js';
import { IntakeUnavailableError, type IntakeService } from './intake.service.js';

/** What one client may take of the listener (the INTAKE_SMTP_* settings). */
export interface IntakeSmtpLimits {
  /** Connections held at once, from everyone. */
  maxConnections: number;
  /** Connections held at once from one client address (an IPv6 client: its /64). */
  maxConnectionsPerAddress: number;
  /** Silence from the client, in a command or in the middle of a message, after which it is dropped. */
  idleTimeoutMs: number;
  /** How long one connection may last, however busy it keeps. */
  maxSessionMs: number;
}

export interface IntakeSmtpOptions {
  host: string;
  port: number;
  domain: string;
  maxMessageBytes: number;
  /** INTAKE_SMTP_LIMITS for any not given. */
  limits?: Partial<IntakeSmtpLimits>;
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
 * No client can hold it against others: one address gets only a few connections, and a
 * connection that goes silent (mid-message too) or lasts too long is answered 421 and dropped.
 */
export async function startIntakeSmtpServer(intake: Pick<IntakeService, 'receive'>, options: IntakeSmtpOptions): Promise<IntakeSmtpServer> {
  const { domain, maxMessageBytes, log } = options;
  const limits: IntakeSmtpLimits = { ...INTAKE_SMTP_LIMITS, ...options.limits };
  /** The open sessions that onConnect let in: the network each counts against, and its deadline. */
  const sessions = new Map<string, { network: string; deadline: NodeJS.Timeout }>();
  const openByNetwork = new Map<string, number>();

  const endSession = (id: string) => {
    const connection = [...server.connections].find((c) => c.id === id);
    if (!connection) return;
    log.warn({ ip: connection.remoteAddress, limitMs: limits.maxSessionMs }, 'intake SMTP connection closed: session too long');
    // 421 closes the connection; a message cut off this way stays the sender's to send again.
    connection.send(421, '4.4.2 Session too long, closing connection');
  };

  const server = new SMTPServer({
    name: domain,
    banner: 'Receipts intake',
    size: maxMessageBytes,
    // Receives mail for its own addresses: no sign-in, no relaying.
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // Each connection may hold a message of up to maxMessageBytes in memory: this bounds them all.
    maxClients: limits.maxConnections,
    // smtp-server's idle timeout: every byte from the client resets it, and it runs in DATA as
    // well; it waits only while the client waits for us (a handler, the message being processed).
    socketTimeout: limits.idleTimeoutMs,
    // Nothing here uses the client's DNS name, and without the lookup (up to 1.5 s, answered by
    // whoever owns the client's address) onConnect counts a new connection within 100 ms.
    disableReverseLookup: true,
    logger: false,
    onConnect(session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const network = clientNetwork(session.remoteAddress);
      const open = openByNetwork.get(network) ?? 0;
      if (open >= limits.maxConnectionsPerAddress) {
        log.warn({ ip: session.remoteAddress, open }, 'intake SMTP connection refused: too many from its address');
        return callback(smtpError(421, '4.7.0 Too many connections from your address, try again later'));
      }
      openByNetwork.set(network, open + 1);
      // The idle timeout never ends a client that sends a byte now and then: this does.
      const deadline = setTimeout(() => endSession(session.id), limits.maxSessionMs);
      deadline.unref();
      sessions.set(session.id, { network, deadline });
      callback();
    },
    onClose(session: SMTPServerSession) {
      const counted = sessions.get(session.id);
      if (!counted) return;
      sessions.delete(session.id);
      clearTimeout(counted.deadline);
      const left = (openByNetwork.get(counted.network) ?? 1) - 1;
      if (left > 0) openByNetwork.set(counted.network, left);
      else openByNetwork.delete(counted.network);
    },
    onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const at = address.address.lastIndexOf('@');
      if (at < 0 || address.address.slice(at + 1).toLowerCase() !== domain) return callback(smtpError(550, '5.7.1 Relaying denied'));
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, '4.5.3 Too many recipients'));
      callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        // Past the limit (known before the chunk that crosses it) nothing is kept and what was kept
        // is let go; the rest is read and dropped to its end, or to the idle or session limit, to answer 552.
        if (stream.sizeExceeded) chunks.length = 0;
        else chunks.push(chunk);
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
