import { randomBytes } from 'node:crypto';
import { IntakeAddressService, UploadService } from '@receipts/api';
import { IntakeService, MailReader, startIntakeSmtpServer } from '@receipts/api/intake';
import { createLogger, createMailer, IntakeRepository } from '@receipts/infra';
import type { DNSResolver } from 'mailauth';
import nodemailer from 'nodemailer';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSubscriber } from './support/accounts.js';
import { RawSmtp } from './support/raw-smtp.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { eventually, until } from './support/until.js';
import { openUploadStack, type UploadStack } from './support/upload-stack.js';

// The intake SMTP listener under abuse: one client must not be able to hold it against everyone
// else. Linux routes all of 127/8 to the loopback, so each client address below is its own host.
const DOMAIN = 'in.receipts.test';
const ATTACKER = '127.0.0.2';
const SENDER = '127.0.0.3';
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);

type Limits = NonNullable<Parameters<typeof startIntakeSmtpServer>[1]['limits']>;

describe('the intake SMTP listener under abuse', () => {
  let stack: UploadStack;
  let reader: MailReader;
  let sink: SmtpSink;
  let intake: IntakeService;
  /** The account mail is sent to: its intake address and its uploads. */
  let address: string;
  let uploads: () => Promise<unknown[]>;
  let logLines: Array<Record<string, unknown>>;
  let listener: Awaited<ReturnType<typeof startIntakeSmtpServer>> | null;
  let clients: RawSmtp[];
  const timers: NodeJS.Timeout[] = [];

  beforeAll(async () => {
    stack = await openUploadStack();
    const log = createLogger({ level: 'silent', role: 'test' });
    const rows = new IntakeRepository(stack.database.db);
    // DNS as the SPF check sees it: two domains under the public suffix co.uk let this host send.
    const spf: Record<string, string> = { 'evil.co.uk': 'v=spf1 ip4:127.0.0.0/8 -all', 'mail.shop.co.uk': 'v=spf1 ip4:127.0.0.0/8 -all' };
    const resolver: DNSResolver = async (name, rrtype) => {
      if (rrtype === 'TXT' && spf[name]) return [[spf[name]!]];
      throw Object.assign(new Error(`query ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    };
    sink = await startSmtpSink();
    reader = new MailReader({ maxAttachments: 20, timeoutMs: 30_000, maxHeapMb: 256, log });
    intake = new IntakeService({
      uploads: new UploadService({ uploads: stack.uploads, uploadReads: stack.uploadReads, duplicates: stack.duplicates, jobs: stack.jobs, quota: stack.quota, files: stack.files, bus: stack.bus, webhooks: stack.webhooks, log }),
      intake: rows,
      mailer: createMailer({ smtpUrl: sink.url, from: 'Receipts <no-reply@receipts.test>', dataDir: stack.storage, log }),
      format: { domain: DOMAIN, localPrefix: '' },
      maxAttachments: 20,
      adminEmails: [],
      reader,
      resolver,
      log,
    });
    const { userId } = await createSubscriber(stack.database.db);
    address = (await new IntakeAddressService(rows, { domain: DOMAIN, localPrefix: '' }).renew(userId, userId)).address!;
    uploads = () => stack.uploadReads.list({ userId, anonId: null, clientIp: null });
  });

  afterAll(async () => {
    await sink?.close();
    await reader?.close();
    await stack?.close();
  });

  /** A listener in front of the intake, logging what it does. */
  async function listen(limits: Limits, maxMessageBytes = 1024 * 1024) {
    const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
    listener = await startIntakeSmtpServer(intake, { host: '127.0.0.1', port: 0, domain: DOMAIN, maxMessageBytes, limits, log });
    return listener.port;
  }

  async function connect(port: number, from: string): Promise<{ client: RawSmtp; greeting: string | null }> {
    const client = await RawSmtp.connect(port, from);
    clients.push(client);
    return { client, greeting: await client.reply() };
  }

  /** Takes a greeted client to the middle of a message (after DATA's 354 and a header line). */
  async function intoData(client: RawSmtp): Promise<void> {
    expect(await client.command('EHLO client.test')).toMatch(/^250 /);
    expect(await client.command('MAIL FROM:<x@client.test>')).toMatch(/^250 /);
    expect(await client.command(`RCPT TO:<${address}>`)).toMatch(/^250 /);
    expect(await client.command('DATA')).toMatch(/^354 /);
    client.write('Subject: held\r\n');
  }

  /** Sends a byte every 200 ms: never idle, never done. */
  function trickle(client: RawSmtp): void {
    timers.push(setInterval(() => client.write('x'), 200));
  }

  /** What a well-behaved sender from `from` is answered (nodemailer). */
  const deliver = (port: number, from: string) =>
    nodemailer
      .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, localAddress: from, name: 'sender.test' })
      .sendMail({ from: 'ann@shop.test', to: address, subject: 'Receipt', text: 'Attached.', attachments: [{ filename: 'r.jpg', content: jpeg() }] })
      .then((info) => info.response, (err: { response?: string }) => err.response ?? String(err));

  beforeEach(() => {
    logLines = [];
    clients = [];
    listener = null;
  });

  afterEach(async () => {
    for (const timer of timers.splice(0)) clearInterval(timer);
    for (const client of clients) client.destroy();
    await listener?.close();
  });

  it('lets one address hold only its own few connections, so another address still delivers', async () => {
    // More than the listener of old allowed everyone together (10).
    const port = await listen({ maxConnections: 10, maxConnectionsPerAddress: 3, idleTimeoutMs: 2000, maxSessionMs: 60_000 });
    const attempts = await Promise.all(Array.from({ length: 12 }, () => connect(port, ATTACKER)));
    const held = attempts.filter((a) => a.greeting?.startsWith('220 ')).map((a) => a.client);
    expect(held).toHaveLength(3);
    expect(attempts.filter((a) => a.greeting?.startsWith('421 '))).toHaveLength(9);
    for (const client of held) {
      await intoData(client);
      trickle(client);
    }

    // One more from the same address is refused at once, by its own cap.
    const extra = await connect(port, ATTACKER);
    expect(extra.greeting).toMatch(/^421 .*Too many connections from your address/);
    await extra.client.closed;
    expect(logLines.filter((l) => l.msg === 'intake SMTP connection refused: too many from its address').length).toBeGreaterThanOrEqual(1);

    const before = (await uploads()).length;
    expect(await deliver(port, SENDER)).toMatch(/^250 /);
    expect(await uploads()).toHaveLength(before + 1);
    // The three were held all along.
    expect(held.every((c) => !c.isClosed)).toBe(true);

    // Their places are given back when they go.
    for (const client of held) client.destroy();
    await eventually(async () => expect((await connect(port, ATTACKER)).greeting).toMatch(/^220 /));
  });

  it('holds at most maxConnections in all, whatever the addresses', async () => {
    const port = await listen({ maxConnections: 4, maxConnectionsPerAddress: 3 });
    for (const from of [ATTACKER, ATTACKER, ATTACKER, '127.0.0.4']) expect((await connect(port, from)).greeting).toMatch(/^220 /);
    expect((await connect(port, '127.0.0.5')).greeting).toMatch(/^421 .*Too many connected clients/);
  });

  it('drops a client that stops in the middle of a message once it has been silent for the idle timeout', async () => {
    const port = await listen({ idleTimeoutMs: 1000, maxSessionMs: 60_000 });
    const before = (await uploads()).length;
    const { client } = await connect(port, ATTACKER);
    await intoData(client);
    const silentSince = Date.now();
    expect(await client.reply()).toMatch(/^421 .*Timeout/);
    await client.closed;
    const silent = Date.now() - silentSince;
    // Dropped for its silence, not before.
    expect(silent).toBeGreaterThanOrEqual(900);
    expect(await uploads()).toHaveLength(before);
  }, 15_000);

  it('closes a connection that trickles bytes at the session limit', async () => {
    const port = await listen({ idleTimeoutMs: 1000, maxSessionMs: 2500 });
    const openedAt = Date.now();
    const { client } = await connect(port, ATTACKER);
    await intoData(client);
    trickle(client);
    expect(await client.reply()).toMatch(/^421 .*Session too long/);
    await client.closed;
    const lasted = Date.now() - openedAt;
    // Past the idle timeout: the trickle kept that from biting, the session limit did.
    expect(lasted).toBeGreaterThanOrEqual(2400);
    expect(logLines.filter((l) => l.msg === 'intake SMTP connection closed: session too long')).toHaveLength(1);
  }, 15_000);

  it('answers 552 to a message past the size limit, passes none of it on, and goes on with the next', async () => {
    const port = await listen({}, 64 * 1024);
    const before = (await uploads()).length;
    const { client } = await connect(port, SENDER);
    await intoData(client);
    for (let i = 0; i < 16; i++) client.write(`${'y'.repeat(64 * 1024 - 2)}\r\n`);
    expect(await client.command('.')).toMatch(/^552 /);
    expect(await uploads()).toHaveLength(before);

    expect(await client.command('MAIL FROM:<x@client.test>')).toMatch(/^250 /);
    expect(await client.command(`RCPT TO:<${address}>`)).toMatch(/^250 /);
    expect(await client.command('DATA')).toMatch(/^354 /);
    expect(await client.command('Subject: small\r\n\r\nCorner Grocery\r\nTotal 7.23\r\n.')).toMatch(/^250 /);
    // The e-mail that is itself a receipt became one upload.
    expect(await uploads()).toHaveLength(before + 1);
  });
  it('answers a refusal only to a sender proven for its own organization: an SPF pass for evil.co.uk proves nothing about co.uk', async () => {
    const port = await listen({});
    const unknown = `${'a'.repeat(24)}@${DOMAIN}`;
    const send = (from: string, envelopeFrom: string) =>
      nodemailer
        .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, localAddress: SENDER, name: 'sender.test' })
        .sendMail({ from, envelope: { from: envelopeFrom, to: unknown }, to: unknown, subject: 'Receipt', text: 'Attached.', attachments: [{ filename: 'r.jpg', content: jpeg() }] });
    await send('someone@co.uk', 'x@evil.co.uk');
    await send('ann@shop.co.uk', 'bounce@mail.shop.co.uk');
    // The proven sender is answered; by then the other had its chance.
    await until(async () => sink.mails.filter((m) => m.to.includes('ann@shop.co.uk')), (m) => m.length === 1, 'the reply to the proven sender');
    expect(sink.mails.filter((m) => m.to.includes('someone@co.uk'))).toHaveLength(0);
  });
});
