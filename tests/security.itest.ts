import { randomBytes, randomUUID } from 'node:crypto';
import {
  AMOUNT_TOO_LARGE,
  MEMBERSHIP_MESSAGES,
  USER_MESSAGES,
  WORKSPACE_HEADER,
  type IntakeAddressView,
  type QuotaView,
  type ReceiptView,
  type UploadView,
  type UserProfile,
  type WorkspaceList,
} from '@receipts/common';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/accounts.js';
import { launchChromium } from './support/browser.js';
import { Deployment } from './support/deployment.js';
import { freePort } from './support/free-port.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';
import { startServiceProcess } from './support/service-process.js';
import { startSmtpSink, tokenIn } from './support/smtp-sink.js';
import { until } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';

/**
 * The findings of the hardening issue (#14), one test per row, against the real service: none
 * of them may come back.
 */
const PASSWORD = 'Secret123';
const INTAKE_DOMAIN = 'in.receipts.test';
const json = (method: string, body: unknown) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('security (issue 14)', () => {
  let deployment: Deployment;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let receipt: Buffer;
  let intakePort: number;
  let emails = 0;
  const newEmail = () => `sec${++emails}-${process.pid}@example.test`;
  const visitor = () => new Visitor(deployment.baseUrl, uniqueIp());
  const post = (v: Visitor, url: string, body: unknown) => v.json<Record<string, unknown>>(url, json('POST', body));
  /** A signed-in account with its address confirmed. */
  const registered = async (email = newEmail()) => {
    const v = visitor();
    await signUp(v, smtp, email, PASSWORD);
    return v;
  };
  /** The ADMIN_EMAILS account, signed up once, then signed in afresh for each caller. */
  let bossSignedUp: Promise<Visitor> | null = null;
  const boss = async () => {
    if (!bossSignedUp) return (bossSignedUp = registered('boss@example.test'));
    await bossSignedUp;
    const v = visitor();
    expect((await post(v, '/api/auth/login', { email: 'boss@example.test', password: PASSWORD })).status).toBe(200);
    return v;
  };
  /** The mails to `email` that contain `text`, oldest first, once `count` have arrived. */
  const mailsWith = async (email: string, text: string, count = 1) => {
    const deadline = Date.now() + 15_000;
    const matching = () => smtp.mails.filter((m) => m.to.includes(email) && m.decoded.includes(text));
    while (matching().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return matching();
  };
  const profileOf = async (v: Visitor) => (await v.json<UserProfile>('/api/user/profile')).body;
  /** Runs SQL against the deployment's database (to provoke a database error on purpose, to count rows). */
  const sql = async (text: string) => {
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    try {
      return (await db.query(text)).rows;
    } finally {
      await db.end();
    }
  };
  const storedSessions = async () => Number((await sql('SELECT count(*) AS n FROM sessions'))[0]!.n);

  /** The reset tokens mailed to `email`, oldest first, once `count` have arrived. */
  const resetTokens = async (email: string, count: number) =>
    (await mailsWith(email, 'reset-password?token=', count)).map((m) => tokenIn(m, 'reset-password'));
  const reset = (v: Visitor, token: string, password: string) => post(v, '/api/auth/reset-password', { token, password, confirmPassword: password });
  const invalidLink = { status: 400, body: { error: 'INVALID_TOKEN', message: 'This password reset link is invalid or has expired.' } };

  beforeAll(async () => {
    receipt = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
    smtp = await startSmtpSink();
    intakePort = await freePort();
    deployment = await Deployment.start('postgres', {
      SMTP_URL: smtp.url,
      // E-mail intake, for a removed member's address into the workspace (issue 47).
      INTAKE_DOMAIN,
      INTAKE_SMTP_PORT: String(intakePort),
      INTAKE_SMTP_HOST: '127.0.0.1',
      PUBLIC_URL: 'http://receipts.test',
      ADMIN_EMAILS: 'boss@example.test, Chief@Example.test ,elder@example.test',
      // One attempt: a failing upload fails at once instead of after the retry back-off.
      JOB_ATTEMPTS: '1',
    });
  });

  afterAll(async () => {
    await deployment?.stop();
    await smtp?.close();
  });

  it('row 2: a total past the maximum is dropped, and database errors reach nobody (api nor worker)', async () => {
    const v = visitor();
    await v.connect();
    const huge = await printedReceipt(['CORNER HARDWARE', 'DATE 21/09/2024', 'TOTAL 1,000,000,000,000.00'], { format: 'jpeg' });
    const { body } = await v.upload(huge, 'huge.jpg');
    const ended = await v.waitForEnd(body.id as string);
    expect(ended.event).toBe('upload:completed');
    expect((ended.payload.receipt as ReceiptView).total ?? null).toBeNull();

    // The worker's database write fails: the user reads a reference, the SQL stays in the log.
    await sql('ALTER TABLE receipts ADD CONSTRAINT security_itest_refuses CHECK (false) NOT VALID');
    try {
      const { body: failing } = await v.upload(receipt, 'refused.jpg');
      const failed = await v.waitForEnd(failing.id as string);
      expect(failed.event).toBe('upload:failed');
      expect(failed.payload.error).toMatch(/^Processing failed on our side\. Please try again; if it keeps failing, quote reference [\w-]+\.$/);
      const stored = await v.json<UploadView>(`/api/uploads/${failing.id}`);
      expect(stored.body.error).toBe(failed.payload.error);
    } finally {
      await sql('ALTER TABLE receipts DROP CONSTRAINT security_itest_refuses');
    }

    // The api's database write fails: a generic message with the request id.
    await sql('ALTER TABLE uploads ADD CONSTRAINT security_itest_refuses CHECK (false) NOT VALID');
    try {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(receipt)]), 'refused.jpg');
      const res = await v.request('/api/ocr', { method: 'POST', body: form });
      expect(res.status).toBe(500);
      const requestId = res.headers.get('x-request-id');
      expect(await res.json()).toEqual({ error: 'INTERNAL', message: `Something went wrong on our side. Please try again. (Reference: ${requestId})` });
    } finally {
      await sql('ALTER TABLE uploads DROP CONSTRAINT security_itest_refuses');
    }
    v.close();
  });

  it('row 10: out-of-range amounts, malformed multipart and malformed ids are answered 400', async () => {
    const v = await registered();
    const patch = (body: unknown) => v.json<Record<string, unknown>>(`/api/receipts/${randomUUID()}`, json('PATCH', body));
    expect(await patch({ total: 1e12 })).toEqual({ status: 400, body: { error: 'VALIDATION_FAILED', message: AMOUNT_TOO_LARGE } });
    expect((await patch({ items: [{ description: 'x', amount: 1e12 }] })).status).toBe(400);

    // A NUL in the file name, raw and encoded, written by hand: no client library sends one.
    const boundary = 'x-security-boundary';
    const uploadNamed = (disposition: string) =>
      v.json<Record<string, unknown>>('/api/ocr', {
        method: 'POST',
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: image/jpeg\r\n\r\n`),
          receipt,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    expect(await uploadNamed('filename="a\u0000b.jpg"')).toEqual({
      status: 400,
      body: { error: 'BAD_REQUEST', message: 'The upload is not a readable form. Send the file as multipart/form-data.' },
    });
    expect(await uploadNamed("filename*=UTF-8''a%00b.jpg")).toEqual({
      status: 400,
      body: { error: 'BAD_REQUEST', message: 'The file name contains characters that are not allowed.' },
    });

    const badId = { status: 400, body: { error: 'BAD_REQUEST', message: 'Not a valid id.' } };
    expect(await v.json('/api/uploads/not-a-uuid')).toEqual(badId);
    expect(await v.json("/api/receipts/1'%20OR%201=1")).toEqual(badId);
    const admin = await boss();
    expect(await admin.json('/api/admin/users/42', json('PATCH', { userType: 'user' }))).toEqual(badId);
    expect(await admin.json('/api/admin/uploads/42/retry', json('POST', {}))).toEqual(badId);
  });

  it('row 5: X-Forwarded-For counts for nothing unless TRUST_PROXY names the proxy', async () => {
    // Without the intake: the deployment's api listens on its port already.
    const { INTAKE_SMTP_PORT: _port, INTAKE_DOMAIN: _domain, ...env } = deployment.env;
    const api = await startServiceProcess('api', { ...env, PORT: String(await freePort()), ROLES: 'api', TRUST_PROXY: '' });
    try {
      const direct = (ip: string) => new Visitor(`http://127.0.0.1:${api.port}`, ip);
      // 81.2.69.160 is in Great Britain; the real client, 127.0.0.1, is nowhere.
      expect((await direct('81.2.69.160').json('/api/detect-currency')).body).toEqual({ currency: 'USD', country: null });
      // Rotated spoofed addresses, a fresh session each: still one client address, 5 a day.
      const visitors = Array.from({ length: 6 }, () => direct(uniqueIp()));
      const answers = [];
      for (const [i, v] of visitors.entries()) answers.push(await v.upload(receipt, `spoofed-${i}.jpg`));
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202, 429]);
      await Promise.all(answers.slice(0, 5).map((a, i) => visitors[i]!.request(`/api/ocr/cancel/${String(a.body.id)}`, { method: 'POST' })));
    } finally {
      await api.stop();
    }
  });

  it('row 3: asking for reset links for an address never locks its owner out of signing in', async () => {
    const email = newEmail();
    const owner = await registered(email);
    await post(owner, '/api/auth/logout', {});
    const stranger = visitor();
    const asked = [];
    for (let i = 0; i < 12; i++) asked.push((await post(stranger, '/api/auth/forgot-password', { email })).status);
    // The mails to the address are limited...
    expect(asked.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(asked.slice(10)).toEqual([429, 429]);
    // ...its owner's sign-in is not.
    expect((await post(owner, '/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
  });

  it('row 7: forgot-password answers before it looks the address up or sends anything', async () => {
    const email = newEmail();
    await registered(email);
    const stranger = visitor();
    smtp.hold();
    try {
      // With the mail held at the server, an answer that waited for it would not come.
      const known = await post(stranger, '/api/auth/forgot-password', { email });
      const unknown = await post(stranger, '/api/auth/forgot-password', { email: newEmail() });
      expect(known).toEqual(unknown);
      expect(smtp.mails.some((m) => m.to.includes(email) && m.decoded.includes('reset-password?token='))).toBe(false);
    } finally {
      smtp.release();
    }
    expect(await resetTokens(email, 1)).toHaveLength(1);
  });

  it('row 7: register answers alike for known and new addresses, before it looks either up, and signs nobody in', async () => {
    const known = newEmail();
    await registered(known);
    const fresh = newEmail();
    const stranger = visitor();
    // The users table locked: an answer that looked the address up, or made the account, would not come.
    const lock = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await lock.connect();
    let answers;
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      answers = [
        await post(stranger, '/api/auth/register', { email: known, password: 'Other1234' }),
        await post(stranger, '/api/auth/register', { email: fresh, password: PASSWORD }),
      ];
    } finally {
      await lock.query('ROLLBACK');
      await lock.end();
    }
    expect(answers[0]).toEqual({ status: 202, body: { message: 'Account created successfully!' } });
    expect(answers[1]).toEqual(answers[0]);
    expect((await stranger.json('/api/user/profile')).status).toBe(401);
    // The mailboxes' owners learn which it was.
    expect(await mailsWith(known, 'Subject: You already have a Receipts account')).toHaveLength(1);
    expect(await mailsWith(fresh, 'Subject: Confirm your e-mail address')).toHaveLength(1);
    expect((await post(visitor(), '/api/auth/login', { email: known, password: 'Other1234' })).status).toBe(401);
  });

  it('row 1: an admin address gives admin rights only once its owner has proven it, whatever its spelling', async () => {
    const forbidden = { status: 403, body: { error: 'FORBIDDEN', message: 'Admins only.' } };
    // Someone registers an address of ADMIN_EMAILS, spelled another way, with a password of their own.
    const squatter = visitor();
    expect((await post(squatter, '/api/auth/register', { email: ' CHIEF@Example.test ', password: 'Squat1234' })).status).toBe(202);
    const [confirmation] = await mailsWith('chief@example.test', 'verify-email?token=');
    expect((await post(squatter, '/api/auth/login', { email: 'chief@example.test', password: 'Squat1234' })).status).toBe(200);
    expect(await profileOf(squatter)).toMatchObject({ email: 'chief@example.test', userType: 'user', emailVerified: false });
    expect(await squatter.json('/api/admin/users')).toEqual(forbidden);
    expect((await squatter.request('/admin/queues')).status).toBe(403);
    expect(await post(squatter, '/api/auth/verify-email', { token: 'guessed' })).toMatchObject({ status: 400, body: { error: 'INVALID_TOKEN' } });

    // The mailbox's owner following the link confirms nothing without the squatter's password:
    // not signed in, or signed in to another account.
    const token = tokenIn(confirmation!, 'verify-email');
    expect((await post(visitor(), '/api/auth/verify-email', { token })).status).toBe(401);
    const other = visitor();
    await signUp(other, smtp, newEmail(), PASSWORD, { confirm: false });
    expect(await post(other, '/api/auth/verify-email', { token })).toEqual({ status: 400, body: { error: 'INVALID_TOKEN', message: USER_MESSAGES.invalidConfirmationLink } });
    expect(await squatter.json('/api/admin/users')).toEqual(forbidden);

    // The owner takes the address back with a reset link: the squatter is signed out, the owner is admin.
    const owner = visitor();
    expect((await post(owner, '/api/auth/register', { email: 'chief@example.test', password: 'Owner1234' })).status).toBe(202);
    expect(await mailsWith('chief@example.test', 'already has an account')).toHaveLength(1);
    await post(owner, '/api/auth/forgot-password', { email: 'chief@example.test' });
    const [resetToken] = await resetTokens('chief@example.test', 1);
    expect((await reset(owner, resetToken!, 'Owner1234')).status).toBe(200);
    expect((await squatter.json('/api/user/profile')).status).toBe(401);
    expect((await post(owner, '/api/auth/login', { email: 'chief@example.test', password: 'Owner1234' })).status).toBe(200);
    expect(await profileOf(owner)).toMatchObject({ userType: 'admin', emailVerified: true });
    expect((await owner.json('/api/admin/users')).status).toBe(200);

    // An account from before addresses were confirmed keeps counting as confirmed, unless its
    // address is an admin's: that one proves it first.
    const elder = visitor();
    const plain = visitor();
    const plainEmail = newEmail();
    await signUp(elder, smtp, 'elder@example.test', PASSWORD, { confirm: false });
    await signUp(plain, smtp, plainEmail, PASSWORD, { confirm: false });
    await sql(`UPDATE users SET created_before_verification = true WHERE email IN ('elder@example.test', '${plainEmail}')`);
    expect(await profileOf(plain)).toMatchObject({ userType: 'user', emailVerified: true });
    expect(await profileOf(elder)).toMatchObject({ userType: 'user', emailVerified: false });
    expect(await elder.json('/api/admin/users')).toEqual(forbidden);
    expect((await post(elder, '/api/auth/resend-verification', {})).status).toBe(200);
    const [, resent] = await mailsWith('elder@example.test', 'verify-email?token=', 2);
    expect((await post(elder, '/api/auth/verify-email', { token: tokenIn(resent!, 'verify-email') })).status).toBe(200);
    expect(await profileOf(elder)).toMatchObject({ userType: 'admin', emailVerified: true });
  });

  it('row 11: an unconfirmed account shares the anonymous allowance of its client address, and cannot subscribe', async () => {
    const ip = uniqueIp();
    const from = () => new Visitor(deployment.baseUrl, ip);
    const anonymous = from();
    const sent: Array<[Visitor, string]> = [];
    const upload = async (v: Visitor, name: string) => {
      const res = await v.upload(receipt, name);
      if (res.status === 202) sent.push([v, res.body.id as string]);
      return res.status;
    };
    const quota = async (v: Visitor) => (await v.json<QuotaView>('/api/user/quota')).body;
    for (let i = 0; i < 3; i++) expect(await upload(anonymous, `anonymous-${i}.jpg`)).toBe(202);
    // Two throwaway accounts from the same address: two receipts left between them, not ten.
    const first = from();
    const second = from();
    await signUp(first, smtp, newEmail(), PASSWORD, { confirm: false });
    const secondToken = await signUp(second, smtp, newEmail(), PASSWORD, { confirm: false });
    expect(await quota(first)).toMatchObject({ used: 3, limit: 5, canProcess: true });
    expect([await upload(first, 'first-1.jpg'), await upload(first, 'first-2.jpg'), await upload(first, 'first-3.jpg')]).toEqual([202, 202, 429]);
    expect(await upload(second, 'second-1.jpg')).toBe(429);
    expect(await quota(second)).toMatchObject({ used: 5, limit: 5, canProcess: false });
    expect(await upload(anonymous, 'anonymous-4.jpg')).toBe(429);
    // No plan for an address nobody has proven.
    const plans = (await second.json<{ plans: Array<{ id: string; stripePriceId: string }> }>('/api/plans')).body.plans;
    const starter = { planId: 'starter', stripePriceId: plans.find((p) => p.id === 'starter')!.stripePriceId };
    expect(await post(second, '/api/create-subscription', starter)).toEqual({
      status: 403,
      body: { error: 'EMAIL_NOT_VERIFIED', message: USER_MESSAGES.confirmBeforeSubscribing },
    });

    // Confirmed, the account has its own 5 a day.
    expect((await post(second, '/api/auth/verify-email', { token: secondToken })).status).toBe(200);
    expect(await quota(second)).toMatchObject({ used: 0, limit: 5, canProcess: true });
    expect(await upload(second, 'second-2.jpg')).toBe(202);
    await Promise.all(sent.map(([v, id]) => v.request(`/api/ocr/cancel/${id}`, { method: 'POST' })));
  });

  it('row 4: reset-password is rate-limited, and a bogus token is refused before any hashing', async () => {
    const v = visitor();
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await reset(v, `bogus-${i}`, 'NewPass123'));
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(invalidLink));
    expect(answers[10]).toMatchObject({ status: 429, body: { error: 'RATE_LIMITED' } });
    // No password hash is computed for a bogus token: 10 of them, from a fresh address, take
    // less than half the time 10 hashes would (one hash measured as a sign-in with an unknown address).
    const fresh = visitor();
    const started = performance.now();
    for (let i = 0; i < 10; i++) await reset(fresh, `bogus-fresh-${i}`, 'NewPass123');
    const tenResetsMs = performance.now() - started;
    const hashStarted = performance.now();
    await post(visitor(), '/api/auth/login', { email: newEmail(), password: PASSWORD });
    const oneHashMs = performance.now() - hashStarted;
    expect(tenResetsMs).toBeLessThan(oneHashMs * 5);
  });

  it('row 6: a newer link or a reset invalidates every older link', async () => {
    const email = newEmail();
    const v = await registered(email);
    for (let i = 0; i < 3; i++) await post(visitor(), '/api/auth/forgot-password', { email });
    const [first, second, newest] = await resetTokens(email, 3);
    // A newer link makes the older ones worthless.
    expect(await reset(v, first!, 'NewPass123')).toEqual(invalidLink);
    expect(await reset(v, second!, 'NewPass123')).toEqual(invalidLink);
    expect((await reset(v, newest!, 'NewPass123')).status).toBe(200);
    // After the reset no link of the account works, the one used included.
    for (const token of [first!, second!, newest!]) expect(await reset(v, token, 'NewPass456')).toEqual(invalidLink);
    expect((await post(visitor(), '/api/auth/login', { email, password: 'NewPass123' })).status).toBe(200);
  });

  it('row 8: over plain HTTP the CSP does not ask the browser to upgrade to https', async () => {
    const res = await visitor().request('/api/plans');
    const policy = res.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toContain('upgrade-insecure-requests');
  });

  it('row 9: UTF-8 file names stay as written, stored and listed', async () => {
    const v = visitor();
    const name = 'Müller – Café 東京.jpg';
    const { status, body } = await v.upload(receipt, name);
    expect(status).toBe(202);
    expect((await v.json<UploadView>(`/api/uploads/${String(body.id)}`)).body.filename).toBe(name);
    expect((await v.json<UploadView[]>('/api/uploads')).body.map((u) => u.filename)).toContain(name);
    await v.request(`/api/ocr/cancel/${String(body.id)}`, { method: 'POST' });
  });

  it('row 12: the queue dashboard\'s state-changing calls need X-Requested-With too', async () => {
    const admin = await boss();
    const page = await (await admin.request('/admin/queues')).text();
    // The page loads the script that gives its own calls the header.
    expect(page).toContain('<script src="./xhr-header.js"></script></head>');
    const script = await admin.request('/admin/queues/xhr-header.js');
    expect(await script.text()).toContain("setRequestHeader('X-Requested-With', 'XMLHttpRequest')");

    const pause = `${deployment.baseUrl}/admin/queues/api/queues/receipts/pause`;
    const forged = await fetch(pause, { method: 'PUT', headers: { cookie: admin.cookie } });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing X-Requested-With header.' });
    expect((await admin.request('/admin/queues/api/queues/receipts/pause', { method: 'PUT' })).ok).toBe(true);
    expect((await admin.request('/admin/queues/api/queues/receipts/resume', { method: 'PUT' })).ok).toBe(true);

    // In a browser, under the page's CSP, the dashboard's XHR calls (bull-board's axios) carry it.
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const [name, value] = admin.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: deployment.baseUrl }]);
      const page = await context.newPage();
      await page.goto(`${deployment.baseUrl}/admin/queues`);
      const put = (path: string) =>
        page.evaluate(
          (url) =>
            new Promise<number>((resolve) => {
              const xhr = new XMLHttpRequest();
              xhr.open('PUT', url);
              xhr.onload = () => resolve(xhr.status);
              xhr.send();
            }),
          path,
        );
      expect(await put('api/queues/receipts/pause')).toBeLessThan(300);
      expect(await put('api/queues/receipts/resume')).toBeLessThan(300);
    } finally {
      await browser.close();
    }
  });

  it('row 13: a session is stored only once it carries something (a signed-in user)', async () => {
    const before = await storedSessions();
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${deployment.baseUrl}/api/uploads`)));
    expect(answers.every((a) => a.status === 200 && a.headers.get('set-cookie')?.startsWith('rsid='))).toBe(true);
    expect(await storedSessions()).toBe(before);

    // An anonymous visitor keeps their identity (and uploads) on the cookie alone...
    const v = visitor();
    const { body } = await v.upload(receipt, 'anonymous.jpg');
    expect((await v.json<UploadView[]>('/api/uploads')).body.map((u) => u.id)).toEqual([body.id]);
    expect((await visitor().json<UploadView[]>('/api/uploads')).body).toEqual([]);
    expect(await storedSessions()).toBe(before);
    // ...and signing up and in stores the session and keeps the uploads.
    await signUp(v, smtp, newEmail(), PASSWORD);
    expect(await storedSessions()).toBe(before + 1);
    expect((await v.json<UploadView[]>('/api/uploads')).body.map((u) => u.id)).toEqual([body.id]);
    await v.request(`/api/ocr/cancel/${String(body.id)}`, { method: 'POST' });
  });

  describe('teams (issue 47)', () => {
    /** A JSON request; its status and body (null when there is none, a 204's). */
    const call = async (v: Visitor, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await v.request(url, { method, headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, any> };
    };
    /** The token of the latest invitation link mailed to `email`, once `count` have arrived. */
    const invitationLink = async (email: string, count = 1) => {
      const mails = await mailsWith(email, '/invite/', count);
      return /\/invite\/([\w-]+)/.exec(mails.at(-1)!.decoded)![1]!;
    };
    const rows = (text: string) => sql(text);
    /** A team workspace of a new confirmed owner, who acts in it; `people` join by invitation in their roles. */
    const team = async (people: Array<'admin' | 'accountant' | 'member'> = []) => {
      const owner = await registered();
      const { body } = await call(owner, 'POST', '/api/workspaces', { name: 'Corner Bakery' });
      const id = body.id as string;
      expect((await call(owner, 'PUT', '/api/workspaces/current', { workspaceId: id })).status).toBe(200);
      const joined: Visitor[] = [];
      for (const role of people) {
        const email = newEmail();
        const person = await registered(email);
        expect((await call(owner, 'POST', '/api/workspaces/current/invitations', { email, role })).status).toBe(201);
        expect((await call(person, 'POST', `/api/invitations/${await invitationLink(email)}/accept`)).status).toBe(200);
        joined.push(person);
      }
      return { id, owner, joined };
    };
    const userIdOf = async (email: string) => (await rows(`SELECT id FROM users WHERE email = '${email}'`))[0]!.id as string;
    const rolesIn = async (workspaceId: string) => (await rows(`SELECT role FROM workspace_members WHERE workspace_id = '${workspaceId}' ORDER BY role`)).map((r) => r.role as string);

    it('an invitation link works once, for its address only; guessed tokens get the same 404 as a used one', async () => {
      const { id, owner } = await team();
      const [invited, other] = [newEmail(), newEmail()];
      const [invitee, stranger] = [await registered(invited), await registered(other)];
      expect((await call(owner, 'POST', '/api/workspaces/current/invitations', { email: invited, role: 'member' })).status).toBe(201);
      const token = await invitationLink(invited);
      // Only the hash is stored.
      expect(await rows(`SELECT 1 FROM workspace_invitations WHERE token_hash = '${token}'`)).toEqual([]);

      // Another account holding the link cannot use it, nor use it up.
      expect(await call(stranger, 'POST', `/api/invitations/${token}/accept`)).toEqual({ status: 403, body: { error: 'FORBIDDEN', message: MEMBERSHIP_MESSAGES.wrongAddress(invited) } });
      expect(await call(invitee, 'POST', `/api/invitations/${token}/accept`)).toMatchObject({ status: 200, body: { currentId: id } });
      // Used once, it is dead for everyone, its invitee too.
      const used = await call(visitor(), 'GET', `/api/invitations/${token}`);
      expect(used).toEqual({ status: 404, body: { error: 'NOT_FOUND', message: MEMBERSHIP_MESSAGES.linkInvalid } });
      expect(await call(invitee, 'POST', `/api/invitations/${token}/accept`)).toEqual(used);
      expect(await call(stranger, 'POST', `/api/invitations/${token}/accept`)).toEqual(used);

      // Guessing: a random token of the same shape, or any other, is answered exactly as a used one.
      for (const guess of [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url'), token.slice(0, 42), token.toUpperCase()]) {
        expect(await call(visitor(), 'GET', `/api/invitations/${guess}`)).toEqual(used);
        expect(await call(stranger, 'POST', `/api/invitations/${guess}/accept`)).toEqual(used);
      }
      expect(await rolesIn(id)).toEqual(['member', 'owner']);
    });

    it('a removed member’s old session falls back to their own workspace, and their intake address stops delivering', async () => {
      const { id, owner, joined } = await team(['member']);
      const member = joined[0]!;
      const intake = await member.json<IntakeAddressView>('/api/intake', { method: 'POST' });
      const address = intake.body.address!;
      const mail = () =>
        nodemailer.createTransport({ host: '127.0.0.1', port: intakePort, secure: false, ignoreTLS: true }).sendMail({ from: 'ann@shop.test', to: address, subject: 'Receipt', text: 'Attached.', attachments: [{ filename: 'receipt.jpg', content: receipt }] });
      await mail();
      const teamUploads = async () => (await owner.json<UploadView[]>('/api/uploads')).body;
      await until(teamUploads, (list) => list.length === 1, 'the mailed receipt to reach the workspace', { timeoutMs: 30_000, everyMs: 200 });

      const memberId = await userIdOf((await profileOf(member)).email);
      expect((await call(owner, 'DELETE', `/api/workspaces/current/members/${memberId}`)).status).toBe(204);

      // The session that had switched to the workspace acts in the member's own one now...
      expect((await member.json<WorkspaceList>('/api/workspaces')).body).toMatchObject({ currentId: memberId, workspaces: [{ id: memberId }] });
      expect((await member.json<UploadView[]>('/api/uploads')).body).toEqual([]);
      // ...and naming the workspace gets the 404 of one never joined.
      for (const [method, url] of [['GET', '/api/uploads'], ['GET', '/api/workspaces/current/members'], ['POST', '/api/intake'], ['POST', '/api/workspaces/current/leave']] as const) {
        expect(await call(member, method, url, undefined, { [WORKSPACE_HEADER]: id })).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
      }
      expect(await call(member, 'PUT', '/api/workspaces/current', { workspaceId: id })).toMatchObject({ status: 404 });
      // Their receipt stays with the workspace; mail to their old address into it is refused.
      const refusals = () => deployment.output().split('intake message refused: no intake address of a confirmed account').length - 1;
      const before = refusals();
      await mail();
      await until(async () => refusals(), (n) => n > before, 'the mail to be refused', { timeoutMs: 30_000, everyMs: 200 });
      expect(await teamUploads()).toHaveLength(1);
      expect(await rows(`SELECT 1 FROM intake_addresses WHERE workspace_id = '${id}'`)).toEqual([]);
    });

    it('roles are not raised by mass assignment, and an admin can neither demote nor remove the owner', async () => {
      const { id, owner, joined } = await team(['admin', 'member']);
      const [admin, member] = joined as [Visitor, Visitor];
      const [ownerId, adminId, memberId] = await Promise.all([owner, admin, member].map(async (v) => userIdOf((await profileOf(v)).email)));
      const roleOf = `/api/workspaces/current/members/${memberId}`;
      // A member raising themselves, or anyone else.
      expect((await call(member, 'PATCH', roleOf, { role: 'admin' })).status).toBe(403);
      expect((await call(member, 'PATCH', `/api/workspaces/current/members/${adminId}`, { role: 'member' })).status).toBe(403);
      // The owner role, or other fields beside the role, are refused whoever asks.
      for (const body of [{ role: 'owner' }, { role: 'member', userId: ownerId }, { role: 'member', workspaceId: randomUUID() }, { role: 'member', owner: true }]) {
        expect(await call(admin, 'PATCH', roleOf, body)).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
        expect(await call(owner, 'PATCH', roleOf, body)).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
      }
      expect(await call(owner, 'POST', '/api/workspaces/current/invitations', { email: newEmail(), role: 'owner' })).toMatchObject({ status: 400 });
      // The admin against the owner.
      const ownerUntouchable = { status: 403, body: { error: 'FORBIDDEN', message: MEMBERSHIP_MESSAGES.ownerUntouchable } };
      expect(await call(admin, 'PATCH', `/api/workspaces/current/members/${ownerId}`, { role: 'member' })).toEqual(ownerUntouchable);
      expect(await call(admin, 'DELETE', `/api/workspaces/current/members/${ownerId}`)).toEqual(ownerUntouchable);
      expect((await call(admin, 'POST', '/api/workspaces/current/ownership', { userId: adminId })).status).toBe(403);
      expect((await call(admin, 'DELETE', '/api/workspaces/current')).status).toBe(403);
      expect(await rolesIn(id)).toEqual(['admin', 'member', 'owner']);
      expect(await rows(`SELECT user_id FROM workspace_members WHERE workspace_id = '${id}' AND role = 'owner'`)).toEqual([{ user_id: ownerId }]);
    });
  });

  it('an answer to a request made before signing in does not put the anonymous cookie back', async () => {
    const v = visitor();
    await v.request('/api/uploads');
    const anonymous = v.cookie;
    // Carrying its cookie, an anonymous request is answered without re-sending it.
    expect((await fetch(`${deployment.baseUrl}/api/uploads`, { headers: { cookie: anonymous } })).headers.get('set-cookie')).toBeNull();
    await signUp(v, smtp, newEmail(), PASSWORD);
    expect(v.cookie).not.toBe(anonymous);
    // The late answer of a request sent with the anonymous cookie leaves the signed-in one alone...
    const late = await fetch(`${deployment.baseUrl}/api/uploads`, { headers: { cookie: anonymous } });
    expect(late.headers.get('set-cookie')).toBeNull();
    // ...and a signed-in session still rolls its cookie's expiry.
    const signedIn = await v.request('/api/user/profile');
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('set-cookie')).toMatch(/^rsid=/);
  });
});
