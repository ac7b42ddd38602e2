import { randomUUID } from 'node:crypto';
import { DEFAULT_DATEV_SETTINGS, type IntakeAddressView, type UploadView, type UserProfile } from '@receipts/common';
import pg from 'pg';
import MailComposer from 'nodemailer/lib/mail-composer';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpSubscriber, signUp } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { freePort } from './support/free-port.js';
import { startImapStandIn, type ImapStandIn } from './support/imap-stand-in.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { tokenIn } from './support/smtp-sink.js';
import { until } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';

/**
 * The findings of the third hardening round (issue 43) on mail and confirmation, against the
 * running service: none of them may come back.
 */
const DOMAIN = 'in.receipts.test';
const E_RECEIPT = '<h1>Corner Grocery</h1><table><tr><td>Milk 1L</td><td>$2.49</td></tr><tr><td>Sourdough bread</td><td>$4.20</td></tr><tr><td>Tax</td><td>$0.54</td></tr><tr><td><b>Total</b></td><td><b>$7.23</b></td></tr></table><p>14/03/2025</p>';
/** 20,000 rows of one cell spanning 1000 × 1000 (980 KB): the conversion laid out a grid of billions of cells, the api ran out of heap. */
const SPAN_BOMB = `<table>${'<tr><td colspan="1000" rowspan="1000">x</td></tr>'.repeat(20_000)}</table>`;
/** 120,000 nested tables (1.8 MB): the api froze about 60 s, then a RangeError and 451, so the relay sent it again. */
const NESTING_BOMB = '<table><tr><td>'.repeat(120_000);
/** 5,000 nested divs (25 KB): over IMAP it stopped everyone's intake for good. */
const DIV_POISON = `<p>Total 7.23</p>${'<div>'.repeat(5000)}`;

describe('security, third round (issue 43): mail and confirmation', () => {
  let sink: SmtpSink;
  let imap: ImapStandIn;

  beforeAll(async () => {
    sink = await startSmtpSink();
    imap = await startImapStandIn();
  });

  afterAll(async () => {
    await imap?.close();
    await sink?.close();
  });

  describe('mail bombs against the running service (SMTP and IMAP intake)', () => {
    let deployment: Deployment;
    let smtpPort: number;
    let visitor: Visitor;
    let address: string;

    beforeAll(async () => {
      smtpPort = await freePort();
      deployment = await Deployment.start('postgres', {
        INTAKE_DOMAIN: DOMAIN,
        INTAKE_SMTP_PORT: String(smtpPort),
        INTAKE_SMTP_HOST: '127.0.0.1',
        IMAP_URL: imap.url,
        IMAP_USER: imap.user,
        IMAP_PASSWORD: imap.password,
        IMAP_POLL_MS: '1000',
        SMTP_URL: sink.url,
      });
      ({ visitor } = await signedUpSubscriber(deployment.baseUrl, deployment.services.databaseUrl));
      address = (await visitor.json<IntakeAddressView>('/api/intake', { method: 'POST' })).body.address!;
    });

    afterAll(async () => {
      await deployment?.stop();
    });

    /** Sends over SMTP while /healthz is asked every 100 ms; the SMTP answer and the probes that did not answer 200. */
    async function sendWhileProbing(html: string, subject: string): Promise<{ answer: number | undefined; failedProbes: string[] }> {
      const failedProbes: string[] = [];
      let sending = true;
      const probing = (async () => {
        while (sending) {
          const asked = Date.now();
          const status = await fetch(`${deployment.baseUrl}/healthz`, { signal: AbortSignal.timeout(5000) }).then(
            (r) => String(r.status),
            (err: Error) => err.name,
          );
          if (status !== '200') failedProbes.push(`${status} after ${Date.now() - asked} ms`);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const answer = await nodemailer
        .createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true })
        .sendMail({ from: 'mallory@example.test', to: address, subject, html })
        .then(() => 250, (err: { responseCode?: number }) => err.responseCode);
      sending = false;
      await probing;
      return { answer, failedProbes };
    }

    const uploads = async () => (await visitor.json<UploadView[]>('/api/uploads')).body;

    it.each([
      ['a 980 KB table of cells spanning 1000 × 1000', SPAN_BOMB],
      ['a 1.8 MB body of 120,000 nested tables', NESTING_BOMB],
    ])('refuses %s for good (250, not 451) while /healthz keeps answering, and takes nothing', async (_, html) => {
      const subject = `bomb ${randomUUID()}`;
      const { answer, failedProbes } = await sendWhileProbing(html, subject);
      expect(failedProbes).toEqual([]);
      expect(answer).toBe(250);
      expect(deployment.output()).toMatch(/intake message refused.*too-complex|too-complex.*intake message refused/);
      expect(await uploads()).toHaveLength(0);
    });

    it('goes on reading after a bomb: the next e-receipt becomes a receipt', async () => {
      await nodemailer
        .createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true })
        .sendMail({ from: 'ann@shop.test', to: address, subject: 'Your Corner Grocery receipt', html: E_RECEIPT });
      const [done] = await until(uploads, (list) => list.length === 1 && list[0]!.status === 'completed', 'the e-receipt to be read', { timeoutMs: 120_000, everyMs: 500 });
      expect(done!.receipt!.total).toBe(7.23);
    });

    it('sets a poisoned IMAP message aside and takes the good one after it', async () => {
      const compose = (subject: string, html: string) => new MailComposer({ from: 'ann@shop.test', to: address, subject, html, messageId: `<${randomUUID()}@shop.test>` }).compile().build();
      const before = (await uploads()).length;
      await imap.deliver(await compose('poison', DIV_POISON));
      await imap.deliver(await compose('Your Corner Grocery receipt, again', E_RECEIPT.replace('Milk 1L', 'Oat milk 1L')));
      await until(uploads, (list) => list.length === before + 1, 'the good message behind the poisoned one to be taken', { timeoutMs: 60_000, everyMs: 500 });
      const inbox = await until(() => imap.inbox(), (list) => list.length === 2 && list.every((m) => m.flags.includes('\\Seen')), 'both messages to be handled', { timeoutMs: 30_000, everyMs: 500 });
      // The poisoned one is flagged for the operator, the good one only seen.
      expect(inbox.map((m) => m.flags.includes('\\Flagged'))).toEqual([true, false]);
      expect(deployment.output()).toContain('intake message set aside');
    });
  });

  describe('an account taken back from a squatter by password reset', () => {
    let deployment: Deployment;

    beforeAll(async () => {
      deployment = await Deployment.start('postgres', { INTAKE_DOMAIN: DOMAIN, INTAKE_SMTP_PORT: '0', INTAKE_SMTP_HOST: '127.0.0.1', SMTP_URL: sink.url, PUBLIC_URL: 'http://receipts.test' });
    });

    afterAll(async () => {
      await deployment?.stop();
    });

    const json = (method: string, body: unknown) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    it('loses the intake address, learned rules and DATEV settings the squatter set up', async () => {
      const victim = `victim-${randomUUID()}@example.test`;
      const squatter = new Visitor(deployment.baseUrl, uniqueIp());
      await signUp(squatter, sink, victim, 'Squatter123', { confirm: false });
      const address = (await squatter.json<IntakeAddressView>('/api/intake', { method: 'POST' })).body.address;
      expect(address).toMatch(/@/);
      expect((await squatter.json('/api/user/datev-settings', json('PUT', { ...DEFAULT_DATEV_SETTINGS, consultantNumber: 4242 }))).status).toBe(200);
      // A learned rule comes from correcting a read receipt; one is written as a correction would leave it.
      const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
      await db.connect();
      try {
        await db.query("INSERT INTO merchant_rules (workspace_id, kind, match, match_key, value) SELECT id, 'merchant', 'ACME', 'acme', 'Squatter Ltd' FROM users WHERE email = $1", [victim]);
      } finally {
        await db.end();
      }
      expect((await squatter.json<{ rules: unknown[] }>('/api/user/rules')).body.rules).toHaveLength(1);

      // The mailbox's owner asks for a reset and follows the link.
      const owner = new Visitor(deployment.baseUrl, uniqueIp());
      expect((await owner.json('/api/auth/forgot-password', json('POST', { email: victim }))).status).toBe(200);
      const [mail] = await sink.mailsTo(victim, 2).then((mails) => mails.filter((m) => m.decoded.includes('reset-password?token=')));
      const token = tokenIn(mail!, 'reset-password');
      expect((await owner.json('/api/auth/reset-password', json('POST', { token, password: 'Owner12345', confirmPassword: 'Owner12345' }))).status).toBe(200);
      expect((await owner.json('/api/auth/login', json('POST', { email: victim, password: 'Owner12345' }))).status).toBe(200);

      expect((await owner.json<IntakeAddressView>('/api/intake')).body).toEqual({ available: true, address: null });
      expect((await owner.json<{ rules: unknown[] }>('/api/user/rules')).body.rules).toEqual([]);
      expect((await owner.json<{ saved: boolean }>('/api/user/datev-settings')).body.saved).toBe(false);
      // The squatter's session went with the reset.
      expect((await squatter.json('/api/user/profile')).status).toBe(401);
    });
  });

  describe('a confirmation link raced against an address change (PostgreSQL, two api processes)', () => {
    const ROUNDS = 15;
    const PASSWORD = 'Secret123';
    const admins = Array.from({ length: ROUNDS }, (_, i) => `root${i}@example.test`);
    let deployment: Deployment;

    beforeAll(async () => {
      deployment = await Deployment.start('postgres', { SMTP_URL: sink.url, PUBLIC_URL: 'http://receipts.test', ADMIN_EMAILS: admins.join(',') }, { apiProcesses: 2 });
    });

    afterAll(async () => {
      await deployment?.stop();
    });

    const post = (v: Visitor, url: string, body: unknown) =>
      v.json<Record<string, unknown>>(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    it('tells the old address of an address or password change and signs every other session out, on either process', async () => {
      const first = `mover-${randomUUID()}@example.test`;
      const moved = `moved-${randomUUID()}@example.test`;
      const asker = new Visitor(deployment.baseUrl, uniqueIp());
      await signUp(asker, sink, first, PASSWORD);
      let current = first;
      let currentPassword = PASSWORD;
      /** Another browser signed in to the same account. */
      const otherTab = async () => {
        const v = new Visitor(deployment.baseUrl, uniqueIp());
        expect((await post(v, '/api/auth/login', { email: current, password: currentPassword })).status).toBe(200);
        return v;
      };

      const elsewhere = await otherTab();
      expect((await post(asker, '/api/user/email', { email: moved, currentPassword })).status).toBe(200);
      current = moved;
      expect((await elsewhere.json('/api/user/profile')).status).toBe(401);
      expect((await asker.json('/api/user/profile')).status).toBe(200);
      const [addressNotice] = await sink.mailsTo(first, 2).then((mails) => mails.filter((m) => m.decoded.includes('was changed to')));
      expect(addressNotice!.decoded).toContain(moved);

      const again = await otherTab();
      expect((await post(asker, '/api/user/password', { currentPassword, password: 'Changed123', confirmPassword: 'Changed123' })).status).toBe(200);
      currentPassword = 'Changed123';
      expect((await again.json('/api/user/profile')).status).toBe(401);
      expect((await asker.json('/api/user/profile')).status).toBe(200);
      const passwordNotices = (await sink.mailsTo(moved, 2)).filter((m) => m.decoded.includes('The password of your Receipts account was changed.'));
      expect(passwordNotices).toHaveLength(1);
    });

    it('never confirms the new (admin) address with a link mailed to the old one, and answers the standing the server grants', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const visitor = new Visitor(deployment.baseUrl, uniqueIp());
        const token = await signUp(visitor, sink, `racer${round}-${randomUUID()}@example.test`, PASSWORD, { confirm: false });
        // The link is posted a little after, at, or before the change, round by round.
        const delay = (round % 5) * 3;
        const [change, verify] = await Promise.all([
          post(visitor, '/api/user/email', { email: admins[round], currentPassword: PASSWORD }),
          new Promise((r) => setTimeout(r, delay)).then(() => post(visitor, '/api/auth/verify-email', { token })),
        ]);
        expect(change.status).toBe(200);
        // The change's answer never shows a standing the server does not grant.
        expect(change.body.user).toMatchObject({ email: admins[round], emailVerified: false, userType: 'user' });
        const profile = await visitor.json<UserProfile>('/api/user/profile');
        if (profile.status === 200) {
          expect(profile.body).toMatchObject({ email: admins[round], emailVerified: false, userType: 'user' });
          expect((await visitor.json('/api/admin/users')).status).toBe(403);
        }
        // A link that landed before the change confirmed the old address (200); after it, nothing (400).
        expect([200, 400]).toContain(verify.status);
      }
    });
  });

  describe('links in account mails, without PUBLIC_URL', () => {
    let deployment: Deployment;

    beforeAll(async () => {
      // A Deployment trusts a proxy on loopback (TRUST_PROXY), and is not in production.
      deployment = await Deployment.start('postgres', { SMTP_URL: sink.url });
    });

    afterAll(async () => {
      await deployment?.stop();
    });

    const post = (v: Visitor, url: string, body: unknown, headers: Record<string, string> = {}) =>
      v.json(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

    /** The one mail to `email` whose text has `path`: its link (whole, on a line of its own) and its raw text. */
    async function linkTo(email: string, path: string, count: number): Promise<{ link: string; raw: string }> {
      const mail = (await sink.mailsTo(email, count)).filter((m) => m.decoded.includes(`${path}?token=`)).at(-1);
      const link = new RegExp(`^(\\S+${escaped(path)}\\?token=[\\w-]{43})\\r?$`, 'm').exec(mail!.decoded)?.[1];
      if (!link) throw new Error(`no whole ${path} link in:\n${mail!.decoded}`);
      return { link, raw: mail!.raw };
    }

    it('point at the address the page was opened at, come whole in the raw text, and follow a trusted proxy', async () => {
      const email = `lan-${randomUUID()}@example.test`;
      const visitor = new Visitor(deployment.baseUrl, uniqueIp());
      expect((await post(visitor, '/api/auth/register', { email, password: 'Secret123' })).status).toBe(202);
      const confirmation = await linkTo(email, '/verify-email', 1);
      expect(confirmation.link.startsWith(`${deployment.baseUrl}/verify-email?token=`)).toBe(true);
      // Nothing a mail program shows raw cuts or escapes the link.
      expect(confirmation.raw).toMatch(/^Content-Transfer-Encoding: base64\r?$/m);
      expect(confirmation.raw).not.toContain('=3D');

      expect((await post(visitor, '/api/auth/forgot-password', { email })).status).toBe(200);
      expect((await linkTo(email, '/reset-password', 2)).link.startsWith(`${deployment.baseUrl}/reset-password?token=`)).toBe(true);
      // Through the proxy in front: the address the browser used there.
      const proxied = { 'X-Forwarded-Host': 'receipts.lan:8443', 'X-Forwarded-Proto': 'https' };
      expect((await post(visitor, '/api/auth/forgot-password', { email }, proxied)).status).toBe(200);
      const reset = await linkTo(email, '/reset-password', 3);
      expect(reset.link.startsWith('https://receipts.lan:8443/reset-password?token=')).toBe(true);
      // The link works as mailed.
      const token = reset.link.split('token=')[1]!;
      expect((await post(new Visitor(deployment.baseUrl, uniqueIp()), '/api/auth/reset-password', { token, password: 'Changed123', confirmPassword: 'Changed123' })).status).toBe(200);
    });
  });
});
