import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { IntakeAddressService, UploadService } from '@receipts/api';
import { IntakeImapPoller, IntakeService, MailReader, startIntakeSmtpServer } from '@receipts/api/intake';
import { intakeToken } from '@receipts/common';
import { connectProducerRedis, createMailer, createPersonalWorkspace, IntakeRepository, LocalFileStore, ReceiptJobs, schema } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import type { DNSResolver } from 'mailauth';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IntakeAddressView, UploadView } from '@receipts/common';
import { createSubscriber, signedUpSubscriber } from './support/accounts.js';
import { openTestDatabase } from './support/database.js';
import { Deployment } from './support/deployment.js';
import { freePort } from './support/free-port.js';
import { startImapStandIn, type ImapStandIn } from './support/imap-stand-in.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { openUploadStack, type UploadStack } from './support/upload-stack.js';
import { until } from './support/until.js';
import { Visitor } from './support/visitor.js';

const DOMAIN = 'in.receipts.test';
const MAX_MESSAGE_BYTES = 3 * 1024 * 1024;
const MAX_ATTACHMENTS = 20;

// Files by their signatures, each different (so none is a same-file duplicate of another).
const unique = () => randomBytes(64);
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), unique()]);
const png = () => Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), unique()]);
const pdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n', 'latin1'), unique()]);
const gif = () => Buffer.concat([Buffer.from('GIF89a', 'latin1'), unique()]);

/** A zip holding 64 MB of zeros in 64 KB: a bomb for anything that would open it. */
function zipBomb(): Buffer {
  const inner = deflateRawSync(Buffer.alloc(64 * 1024 * 1024));
  const name = Buffer.from('zeros.bin');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(8, 8);
  header.writeUInt32LE(inner.length, 18);
  header.writeUInt32LE(64 * 1024 * 1024, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name, inner]);
}

const HTML_RECEIPT = `<html><body><table width="100%"><tr><td><img src="cid:logo@shop"><h1>Corner Grocery</h1>
<p>Order #A-1234 &middot; 14/03/2025</p>
<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr>
<tr><td>Milk 1L</td><td>1</td><td>$2.49</td></tr>
<tr><td>Sourdough bread</td><td>1</td><td>$4.20</td></tr>
<tr><td colspan="2">Tax</td><td>$0.54</td></tr>
<tr><td colspan="2"><b>Total</b></td><td><b>$7.23</b></td></tr></table>
<p><a href="https://shop.test/unsubscribe">Unsubscribe</a></p></td></tr></table></body></html>`;

/** The text of a PDF's first page, line by line (items on one baseline joined). */
async function pdfLines(bytes: Buffer): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  const rows = new Map<number, string[]>();
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const y = Math.round(item.transform[5]!);
    rows.set(y, [...(rows.get(y) ?? []), item.str]);
  }
  return [...rows.entries()].sort((a, b) => b[0] - a[0]).map(([, parts]) => parts.join('').replace(/\s+/g, ' ').trim());
}

describe('e-mail intake', () => {
  let stack: UploadStack;
  let sink: SmtpSink;
  let imap: ImapStandIn;
  let uploads: UploadService;
  let intakeRows: IntakeRepository;
  let addresses: IntakeAddressService;
  let service: IntakeService;
  let reader: MailReader;
  let smtp: Awaited<ReturnType<typeof startIntakeSmtpServer>>;
  const logLines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });

  // DNS as the checks see it: shop.test signs with DKIM, spf.test lets 127.0.0.1 send, forger.test
  // does not, and nodns.test never answers.
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dkimKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const records: Record<string, string> = {
    'sel._domainkey.shop.test': `v=DKIM1; k=rsa; p=${keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
    'spf.test': 'v=spf1 ip4:127.0.0.1 -all',
    'forger.test': 'v=spf1 ip4:192.0.2.1 -all',
  };
  const resolver: DNSResolver = async (name, rrtype) => {
    if (name.endsWith('nodns.test')) throw Object.assign(new Error(`query ETIMEOUT ${name}`), { code: 'ETIMEOUT' });
    const record = records[name];
    if (rrtype === 'TXT' && record) return [[record]];
    throw Object.assign(new Error(`query ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
  const signedByShop = { domainName: 'shop.test', keySelector: 'sel', privateKey: dkimKey };

  /** An account with an intake address: a subscriber, a free account (5 a day), or one whose address is not confirmed yet. */
  async function account(kind: 'subscriber' | 'free' | 'unconfirmed' = 'subscriber') {
    let userId: string;
    if (kind === 'subscriber') userId = (await createSubscriber(stack.database.db)).userId;
    else {
      const email = `${kind}-${randomUUID()}@example.test`;
      const emailVerifiedAt = kind === 'free' ? new Date() : null;
      const [user] = await stack.database.db.insert(schema.users).values({ email, username: kind, passwordHash: 'not-used', emailVerifiedAt }).returning();
      await createPersonalWorkspace(stack.database.db, user!);
      userId = user!.id;
    }
    const view = await addresses.renew(userId, userId);
    return { userId, address: view.address!, owner: { userId, anonId: null, clientIp: null } };
  }

  const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, name: 'sender.test' });
  const send = (message: Mail.Options) => transport().sendMail({ from: 'ann@shop.test', subject: 'Receipts', text: 'Attached.', ...message });
  /** The SMTP answer code of a refused send. */
  const refusedWith = (message: Mail.Options) => send(message).then(() => 250, (err: { responseCode?: number }) => err.responseCode);

  const uploadsOf = (owner: { userId: string; anonId: null }) => stack.uploadReads.list({ ...owner, clientIp: null });
  const messagesOf = (userId: string) => stack.database.db.select().from(schema.intakeMessages).where(eq(schema.intakeMessages.userId, userId));
  const logged = (msg: string) => logLines.filter((l) => String(l.msg).startsWith(msg));
  const repliesTo = (address: string) => sink.mails.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    stack = await openUploadStack();
    sink = await startSmtpSink();
    imap = await startImapStandIn();
    uploads = new UploadService({ uploads: stack.uploads, uploadReads: stack.uploadReads, duplicates: stack.duplicates, jobs: stack.jobs, quota: stack.quota, files: stack.files, bus: stack.bus, webhooks: stack.webhooks, log });
    intakeRows = new IntakeRepository(stack.database.db);
    addresses = new IntakeAddressService(intakeRows, { domain: DOMAIN, localPrefix: '' });
    const mailer = createMailer({ smtpUrl: sink.url, from: 'Receipts <no-reply@receipts.test>', dataDir: stack.storage, log });
    reader = new MailReader({ maxAttachments: MAX_ATTACHMENTS, timeoutMs: 30_000, maxHeapMb: 256, log });
    service = new IntakeService({ uploads, intake: intakeRows, mailer, format: { domain: DOMAIN, localPrefix: '' }, maxAttachments: MAX_ATTACHMENTS, adminEmails: [], reader, resolver, log });
    smtp = await startIntakeSmtpServer(service, { host: '127.0.0.1', port: 0, domain: DOMAIN, maxMessageBytes: MAX_MESSAGE_BYTES, log });
  });

  afterAll(async () => {
    await smtp?.close();
    await reader?.close();
    await imap?.close();
    await sink?.close();
    await stack?.close();
  });

  beforeEach(() => {
    logLines.length = 0;
  });

  describe('over SMTP (nodemailer to the listener)', () => {
    it('makes one upload per receipt attachment, in the account lane, queued and counted, and leaves logos and other files out', async () => {
      const { userId, address, owner } = await account();
      await send({
        to: address,
        html: '<p>Receipts attached <img src="cid:logo@shop"></p>',
        attachments: [
          { filename: 'dinner.jpg', content: jpeg() },
          { filename: 'taxi.png', content: png() },
          { filename: 'hotel.pdf', content: pdf() },
          { filename: 'banner.gif', content: gif() },
          { filename: 'logo.png', content: png(), cid: 'logo@shop' },
          { filename: 'notes.txt', content: 'not a receipt' },
        ],
      });
      const list = await uploadsOf(owner);
      expect(list.map((u) => u.filename).sort()).toEqual(['dinner.jpg', 'hotel.pdf', 'taxi.png']);
      expect(list.every((u) => u.status === 'queued' && u.lane === 'express')).toBe(true);
      for (const upload of list) expect(await stack.queue.getJob(upload.id)).toBeTruthy();
      expect((await stack.quota.view(owner)).used).toBe(3);
      // The badge's figures follow in the announcer's next batch.
      await until(async () => stack.events.some((e) => e.event === 'quota:updated' && e.room === `user:${userId}`), Boolean, 'the quota figures');
      expect(await messagesOf(userId)).toMatchObject([{ uploads: 3, refusals: [] }]);
      expect(logged('intake attachment left out').map((l) => l.filename).sort()).toEqual(['banner.gif', 'logo.png', 'notes.txt']);
      expect(repliesTo('ann@shop.test')).toHaveLength(0);
    });

    it('turns an e-mail that is the receipt into one PDF upload whose text layer reads as the receipt', async () => {
      const { address: to, owner } = await account();
      await send({ to, subject: 'Your Corner Grocery receipt', html: HTML_RECEIPT, text: undefined, attachments: [{ filename: 'logo.png', content: png(), cid: 'logo@shop' }] });
      const [upload] = await uploadsOf(owner);
      expect(upload).toMatchObject({ filename: 'Your Corner Grocery receipt.pdf', status: 'queued' });
      const lines = await pdfLines(await stack.files.read(upload!.id));
      expect(lines).toContain('Corner Grocery');
      expect(lines).toContainEqual(expect.stringMatching(/^Milk 1L 1 \$2\.49$/));
      expect(lines).toContainEqual(expect.stringMatching(/^Total \$7\.23$/));
      expect(lines.join('\n')).not.toContain('Unsubscribe (');
    });

    it('processes a message delivered twice once (Message-ID)', async () => {
      const { userId, address: to, owner } = await account();
      const message = { to, messageId: `<${randomUUID()}@shop.test>`, attachments: [{ filename: 'a.jpg', content: jpeg() }] };
      await send(message);
      await send(message);
      expect(await uploadsOf(owner)).toHaveLength(1);
      expect(await messagesOf(userId)).toHaveLength(1);
      expect(logged('intake message received before')).toHaveLength(1);
    });

    it('flags the same file mailed again as a duplicate, as an upload would be', async () => {
      const { address: to, owner } = await account();
      const file = jpeg();
      await send({ to, attachments: [{ filename: 'first.jpg', content: file }] });
      await send({ to, attachments: [{ filename: 'again.jpg', content: file }] });
      const list = await uploadsOf(owner);
      expect(list.find((u) => u.filename === 'again.jpg')!.duplicateOf).toMatchObject({ filename: 'first.jpg', reason: 'same-file' });
    });

    it('takes what the quota allows and tells a proven sender what it left', async () => {
      const { userId, address: to, owner } = await account('free');
      const files = Array.from({ length: 7 }, (_, i) => ({ filename: `r${i + 1}.jpg`, content: jpeg() }));
      const messageId = `<${randomUUID()}@spf.test>`;
      await send({ from: 'bob@spf.test', envelope: { from: 'bob@spf.test', to }, to, messageId, attachments: files });
      const list = await uploadsOf(owner);
      expect(list).toHaveLength(5);
      expect(list.every((u) => u.lane === 'standard')).toBe(true);
      expect(await messagesOf(userId)).toMatchObject([
        {
          uploads: 5,
          refusals: [
            { part: 'r6.jpg', refusal: 'over-quota' },
            { part: 'r7.jpg', refusal: 'over-quota' },
          ],
        },
      ]);
      const [reply] = await until(async () => repliesTo('bob@spf.test'), (m) => m.length === 1, 'the reply');
      expect(reply!.raw).toMatch(/^Auto-Submitted: auto-replied$/m);
      expect(reply!.raw).toContain(`In-Reply-To: ${messageId}`);
      expect(reply!.decoded).toContain('r6.jpg: Your receipt limit is used up');
      expect(reply!.decoded).toContain('5 receipts are being processed');
    });

    it('answers mail to an unknown or turned-off address only when DKIM or SPF proves the sender', async () => {
      const { userId, address: to } = await account();
      await addresses.revoke(userId, userId);
      const never = `${intakeToken(randomBytes(15))}@${DOMAIN}`;
      const attachments = [{ filename: 'a.jpg', content: jpeg() }];

      await send({ to, attachments, dkim: signedByShop });
      await send({ from: 'victim@forger.test', envelope: { from: 'victim@forger.test', to: never }, to: never, attachments });
      await send({ from: 'carol@nodns.test', envelope: { from: 'carol@nodns.test', to: never }, to: never, attachments });
      await send({ to: never, attachments, dkim: { ...signedByShop, domainName: 'mailer.test' } });

      const [reply] = await until(async () => repliesTo('ann@shop.test'), (m) => m.length === 1, 'the reply');
      expect(reply!.decoded).toContain('This address does not accept receipts.');
      expect(repliesTo('victim@forger.test')).toHaveLength(0);
      expect(repliesTo('carol@nodns.test')).toHaveLength(0);
      expect(sink.mails).toHaveLength(1 + repliesTo('bob@spf.test').length);
      expect(logged('intake message refused: no intake address')).toHaveLength(4);
      expect(logged('intake refusal not answered: sender not proven')).toHaveLength(3);
      expect(await stack.database.db.select().from(schema.intakeMessages).where(eq(schema.intakeMessages.userId, userId))).toHaveLength(0);
    });

    it('takes nothing for an account whose address is not confirmed, and tells a proven sender why', async () => {
      const { userId, address: to, owner } = await account('unconfirmed');
      await send({ from: 'dora@spf.test', envelope: { from: 'dora@spf.test', to }, to, attachments: [{ filename: 'r.jpg', content: jpeg() }] });
      expect(await uploadsOf(owner)).toHaveLength(0);
      expect(await messagesOf(userId)).toHaveLength(0);
      expect(logged('intake message refused')).toMatchObject([{ refusal: 'unconfirmed' }]);
      const [reply] = await until(async () => repliesTo('dora@spf.test'), (m) => m.length === 1, 'the reply');
      expect(reply!.decoded).toContain("This account's e-mail address is not confirmed yet.");
    });

    it('refuses 1,000 attachments whole, writing nothing', async () => {
      const { userId, address: to, owner } = await account();
      const attachments = Array.from({ length: 1000 }, (_, i) => ({ filename: `r${i}.png`, content: png() }));
      expect(await refusedWith({ to, attachments })).toBe(250);
      expect(await uploadsOf(owner)).toHaveLength(0);
      expect(await messagesOf(userId)).toHaveLength(0);
      expect(logged('intake message refused')).toMatchObject([{ refusal: 'too-many-attachments' }]);
      expect((await stack.quota.view(owner)).used).toBe(0);
    });

    it('never opens a zip bomb: an archive is no receipt file, whatever its name says', async () => {
      const { userId, address: to, owner } = await account();
      const bomb = zipBomb();
      await send({ to, attachments: [{ filename: 'receipt.pdf', contentType: 'application/pdf', content: bomb }] });
      expect(await uploadsOf(owner)).toHaveLength(0);
      expect(await messagesOf(userId)).toHaveLength(0);
      expect(logged('intake message refused')).toMatchObject([{ refusal: 'no-receipt' }]);

      await send({ to, attachments: [{ filename: 'bomb.zip', content: bomb }, { filename: 'lunch.jpg', content: jpeg() }] });
      expect((await uploadsOf(owner)).map((u) => u.filename)).toEqual(['lunch.jpg']);
    });

    it.each([
      ['a multipart body without its closing boundary and with broken base64', 'no-receipt', (to: string) =>
        `From: ann@shop.test\r\nTo: ${to}\r\nSubject: broken\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: image/jpeg; name="x.jpg"\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64@@@\r\n--b1\r\nContent-Type: text/plain\r\n\r\nhello\r\n`],
      ['a header block larger than any mail client writes', 'unreadable', (to: string) => `From: ann@shop.test\r\nTo: ${to}\r\nX-Padding: ${'a'.repeat(300 * 1024)}\r\nSubject: big\r\n\r\nTotal 7.23 at Corner Grocery, Milk 2.49\r\n`],
      ['multiparts nested 5,000 deep', 'too-many-attachments', (to: string) =>
        `From: ann@shop.test\r\nTo: ${to}\r\nSubject: deep\r\nMIME-Version: 1.0\r\n${Array.from({ length: 5000 }, (_, i) => `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n`).join('')}Content-Type: text/plain\r\n\r\nx\r\n`],
      ['binary noise', 'no-receipt', () => randomBytes(20_000).toString('latin1').replace(/\r?\n\.\r?\n/g, '')],
    ])('fails alone on malformed MIME: %s', async (_name, refusal, build) => {
      const { userId, address: to, owner } = await account();
      expect(await refusedWith({ envelope: { from: 'ann@shop.test', to }, raw: build(to) })).toBe(250);
      expect(await uploadsOf(owner)).toHaveLength(0);
      expect(await messagesOf(userId)).toHaveLength(0);
      expect(logged('intake message refused')).toMatchObject([{ refusal }]);
      // The next message is not affected.
      await send({ to, attachments: [{ filename: 'next.jpg', content: jpeg() }] });
      expect(await uploadsOf(owner)).toHaveLength(1);
    });

    it('refuses at the SMTP level what is too large or not for its domain', async () => {
      const { address: to, owner } = await account();
      expect(await refusedWith({ to, attachments: [{ filename: 'huge.jpg', content: Buffer.concat([jpeg(), randomBytes(MAX_MESSAGE_BYTES)]) }] })).toBe(552);
      expect(await refusedWith({ to: 'someone@elsewhere.test', attachments: [{ filename: 'a.jpg', content: jpeg() }] })).toBe(550);
      expect(await uploadsOf(owner)).toHaveLength(0);
    });

    /** A message of two receipts, new each time (its Message-ID). */
    const twoReceipts = (to: string) => ({
      from: 'ann@shop.test',
      to,
      messageId: `<${randomUUID()}@shop.test>`,
      text: 'x',
      attachments: [{ filename: 'a.jpg', content: jpeg() }, { filename: 'b.jpg', content: jpeg() }],
    });

    /** The SMTP answer to a message from an intake listener of its own over `over` (an upload service with something down). */
    async function answerOver(over: UploadService, message: Mail.Options): Promise<number | undefined> {
      const mailer = createMailer({ smtpUrl: sink.url, from: 'Receipts <no-reply@receipts.test>', dataDir: stack.storage, log });
      const down = new IntakeService({ uploads: over, intake: intakeRows, mailer, format: { domain: DOMAIN, localPrefix: '' }, maxAttachments: MAX_ATTACHMENTS, adminEmails: [], reader, resolver, log });
      const downSmtp = await startIntakeSmtpServer(down, { host: '127.0.0.1', port: 0, domain: DOMAIN, maxMessageBytes: MAX_MESSAGE_BYTES, log });
      try {
        return await nodemailer
          .createTransport({ host: '127.0.0.1', port: downSmtp.port, secure: false, ignoreTLS: true })
          .sendMail(message)
          .then(() => 250, (err: { responseCode?: number }) => err.responseCode);
      } finally {
        await downSmtp.close();
      }
    }

    it('answers 451 when the queue is down, writes nothing, and takes the message when it comes again', async () => {
      const { userId, address: to, owner } = await account();
      const producer = await connectProducerRedis(stack.database.services.redisUrl);
      const downJobs = new ReceiptJobs(stack.queue, producer, { prefix: stack.database.services.prefix, attempts: 1, log });
      producer.disconnect();
      const message = twoReceipts(to);
      expect(await answerOver(new UploadService({ uploads: stack.uploads, uploadReads: stack.uploadReads, duplicates: stack.duplicates, jobs: downJobs, quota: stack.quota, files: stack.files, bus: stack.bus, webhooks: stack.webhooks, log }), message)).toBe(451);
      expect(await uploadsOf(owner)).toHaveLength(0);
      expect(await messagesOf(userId)).toHaveLength(0);
      expect((await stack.quota.view(owner)).used).toBe(0);

      await send(message);
      expect(await uploadsOf(owner)).toHaveLength(2);
    });

    it('answers 451 when an attachment cannot be stored, withdraws every upload of the message and its units, and takes it when it comes again', async () => {
      const { userId, address: to, owner } = await account('free');
      // A store whose folder cannot be made (its parent is a file): every write fails, as a full or broken disk's would.
      await writeFile(path.join(stack.storage, 'not-a-folder'), 'a file, not a folder');
      const broken = new LocalFileStore(path.join(stack.storage, 'not-a-folder', 'uploads'));
      const message = twoReceipts(to);
      expect(await answerOver(new UploadService({ uploads: stack.uploads, uploadReads: stack.uploadReads, duplicates: stack.duplicates, jobs: stack.jobs, quota: stack.quota, files: broken, bus: stack.bus, webhooks: stack.webhooks, log }), message)).toBe(451);
      expect(await uploadsOf(owner)).toHaveLength(0);
      expect(await messagesOf(userId)).toHaveLength(0);
      expect((await stack.quota.view(owner)).used).toBe(0);
      expect(logged('intake message not taken')).toHaveLength(1);

      await send(message);
      expect(await uploadsOf(owner)).toHaveLength(2);
      expect((await stack.quota.view(owner)).used).toBe(2);
    });
  });

  describe('from an IMAP mailbox (imapflow against an IMAP server on 127.0.0.1)', () => {
    const compose = (options: Mail.Options) => new MailComposer({ from: 'ann@shop.test', subject: 'Receipt', text: 'Attached.', ...options }).compile().build();
    const poller = (after: 'seen' | 'delete') =>
      new IntakeImapPoller(service, { url: imap.url, user: imap.user, password: imap.password, mailbox: 'INBOX', pollMs: 60_000, after, maxMessageBytes: MAX_MESSAGE_BYTES, log });

    it('takes each unseen message once, marks it seen, and takes a second delivery of it never', async () => {
      const { userId, address: to, owner } = await account();
      const messageId = `<${randomUUID()}@shop.test>`;
      await imap.deliver(await compose({ to, messageId, attachments: [{ filename: 'a.jpg', content: jpeg() }, { filename: 'b.pdf', content: pdf() }] }));
      await imap.deliver(await compose({ to: `receipts@${DOMAIN}`, subject: 'to the mailbox itself', attachments: [{ filename: 'c.jpg', content: jpeg() }] }));

      expect(await poller('seen').poll()).toBe(2);
      expect((await uploadsOf(owner)).map((u) => u.filename).sort()).toEqual(['a.jpg', 'b.pdf']);
      expect((await imap.inbox()).every((m) => m.flags.includes('\\Seen'))).toBe(true);
      expect(logged('intake message refused: no intake address')).toHaveLength(1);
      expect(await poller('seen').poll()).toBe(0);

      // The same message delivered again (a second copy in the mailbox).
      await imap.deliver(await compose({ to, messageId, attachments: [{ filename: 'a.jpg', content: jpeg() }] }));
      expect(await poller('seen').poll()).toBe(1);
      expect(await uploadsOf(owner)).toHaveLength(2);
      expect(await messagesOf(userId)).toHaveLength(1);
    });

    it('leaves a message that fails in an unforeseen way for the next poll, and sets it aside on the third', async () => {
      // A database gone (closed under the service): every look-up of an address fails, as no retry of ours foresees.
      const gone = await openTestDatabase();
      await gone.close();
      const failing = new IntakeService({ uploads, intake: new IntakeRepository(gone.db), mailer: createMailer({ from: 'Receipts <no-reply@receipts.test>', dataDir: stack.storage, log }), format: { domain: DOMAIN, localPrefix: '' }, maxAttachments: MAX_ATTACHMENTS, adminEmails: [], reader, resolver, log });
      const { address: to } = await account();
      const messageId = `<${randomUUID()}@shop.test>`;
      await imap.deliver(await compose({ to, messageId, attachments: [{ filename: 'x.jpg', content: jpeg() }] }));
      const stuck = new IntakeImapPoller(failing, { url: imap.url, user: imap.user, password: imap.password, mailbox: 'INBOX', pollMs: 60_000, after: 'seen', maxMessageBytes: MAX_MESSAGE_BYTES, log });
      const flagsOf = async () => (await imap.inbox()).find((m) => m.messageId === messageId)!.flags;

      expect(await stuck.poll()).toBe(0);
      expect(await stuck.poll()).toBe(0);
      expect(await flagsOf()).toEqual([]);
      expect(logged('intake message failed; it stays unseen')).toHaveLength(2);
      expect(await stuck.poll()).toBe(1);
      expect((await flagsOf()).sort()).toEqual(['\\Flagged', '\\Seen']);
      expect(logged('intake message set aside')).toHaveLength(1);
    });

    it('finds the account by Delivered-To when the address was Bcc, and deletes handled mail when told to', async () => {
      const { address, owner } = await account();
      const raw = (await compose({ to: 'friend@example.test', attachments: [{ filename: 'bcc.jpg', content: jpeg() }] })).toString();
      await imap.deliver(`Delivered-To: ${address}\r\n${raw}`);
      const before = (await imap.inbox()).length;
      expect(await poller('delete').poll()).toBe(1);
      expect((await uploadsOf(owner)).map((u) => u.filename)).toEqual(['bcc.jpg']);
      expect(await imap.inbox()).toHaveLength(before - 1);
    });
  });

  describe('through the built service (api with the SMTP listener, a worker)', () => {
    let deployment: Deployment;
    let port: number;

    beforeAll(async () => {
      port = await freePort();
      deployment = await Deployment.start('postgres', { INTAKE_DOMAIN: DOMAIN, INTAKE_SMTP_PORT: String(port), INTAKE_SMTP_HOST: '127.0.0.1', SMTP_URL: sink.url });
    });

    afterAll(async () => {
      await deployment?.stop();
    });

    const mail = (to: string) =>
      nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }).sendMail({ from: 'ann@shop.test', to, subject: 'Your Corner Grocery receipt', html: HTML_RECEIPT });

    it('shows an address on request, reads the mailed e-receipt into a receipt, and refuses the address once replaced', async () => {
      expect((await new Visitor(deployment.baseUrl).json('/api/intake')).status).toBe(401);
      const { visitor } = await signedUpSubscriber(deployment.baseUrl, deployment.services.databaseUrl);
      expect((await visitor.json<IntakeAddressView>('/api/intake')).body).toEqual({ available: true, address: null });
      const first = (await visitor.json<IntakeAddressView>('/api/intake', { method: 'POST' })).body.address!;
      expect(first).toMatch(new RegExp(`^[a-z2-7]{24}@${DOMAIN.replace(/\./g, '\\.')}$`));
      expect((await visitor.json<IntakeAddressView>('/api/intake')).body.address).toBe(first);

      await mail(first);
      const [done] = await until(
        async () => (await visitor.json<UploadView[]>('/api/uploads')).body,
        (list) => list.length === 1 && list[0]!.status === 'completed',
        'the mailed receipt to be read',
        { timeoutMs: 120_000, everyMs: 500 },
      );
      expect(done).toMatchObject({ filename: 'Your Corner Grocery receipt.pdf', receipt: { total: 7.23 } });
      expect(done!.receipt!.merchantName).toMatch(/corner grocery/i);

      const second = (await visitor.json<IntakeAddressView>('/api/intake', { method: 'POST' })).body.address!;
      expect(second).not.toBe(first);
      await mail(first);
      expect((await visitor.json<UploadView[]>('/api/uploads')).body).toHaveLength(1);
      expect(deployment.output()).toContain('intake message refused: no intake address of a confirmed account');

      expect((await visitor.json<IntakeAddressView>('/api/intake', { method: 'DELETE' })).body).toEqual({ available: true, address: null });
      await mail(second);
      expect((await visitor.json<UploadView[]>('/api/uploads')).body).toHaveLength(1);
    });
  });
});
