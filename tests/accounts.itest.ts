import { AUTH_MESSAGES, USER_MESSAGES, type QueuePlaces, type QuotaView, type UploadView, type UserProfile } from '@receipts/common';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateSubscription, signUp } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { startSmtpSink, tokenIn } from './support/smtp-sink.js';
import { uniqueIp, Visitor } from './support/visitor.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';

const PASSWORD = 'Secret123';

describe('accounts and quotas', () => {
  let deployment: Deployment;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let receipt: Buffer;
  let emails = 0;
  const newEmail = () => `person${++emails}-${process.pid}@example.test`;

  const visitor = () => new Visitor(deployment.baseUrl, uniqueIp());
  const post = (v: Visitor, url: string, body: unknown) =>
    v.json<Record<string, unknown>>(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  /** A signed-in account whose address is confirmed. */
  const register = async (v: Visitor, email = newEmail()) => {
    await signUp(v, smtp, email, PASSWORD);
    return email;
  };
  const mailsWith = async (email: string, text: string, count = 1) => {
    const deadline = Date.now() + 15_000;
    const matching = () => smtp.mails.filter((m) => m.to.includes(email) && m.decoded.includes(text));
    while (matching().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return matching();
  };
  /** Sends 20 uploads at once; returns the answers. */
  const burst = (v: Visitor) => Promise.all(Array.from({ length: 20 }, (_, i) => v.upload(receipt, `burst-${i}.jpg`)));
  const cancelAll = (v: Visitor, ids: string[]) => Promise.all(ids.map((id) => v.request(`/api/ocr/cancel/${id}`, { method: 'POST' })));

  beforeAll(async () => {
    receipt = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
    smtp = await startSmtpSink();
    deployment = await Deployment.start('postgres', { SMTP_URL: smtp.url, PUBLIC_URL: 'http://receipts.test' });
  });

  afterAll(async () => {
    await deployment?.stop();
    await smtp?.close();
  });

  it('lets an anonymous visitor through exactly 5 of 20 parallel uploads, and gives units back on cancel', async () => {
    const v = visitor();
    await v.request('/api/uploads');
    const answers = await burst(v);
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(refused[0]!.body).toEqual({ error: 'QUOTA_EXCEEDED', message: 'Daily limit of 5 receipts exceeded. Sign up for more!' });
    expect((await v.json<QuotaView>('/api/user/quota')).body).toMatchObject({ used: 5, limit: 5, percentage: 100, canProcess: false });
    // Those still waiting have their place in the queue; nobody else's are listed.
    const places = await v.json<QueuePlaces>('/api/uploads/queue');
    expect(places.status).toBe(200);
    for (const place of places.body.uploads) {
      expect(accepted.map((a) => a.body.id)).toContain(place.id);
      expect(place.ahead).toBeGreaterThanOrEqual(0);
    }

    await cancelAll(v, accepted.map((a) => a.body.id as string));
    expect((await v.json<QuotaView>('/api/user/quota')).body).toMatchObject({ used: 0, canProcess: true });
  });

  it('counts anonymous visitors per client address too', async () => {
    const ip = uniqueIp();
    const first = new Visitor(deployment.baseUrl, ip);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await first.upload(receipt, `a${i}.jpg`)).body.id as string);
    const second = new Visitor(deployment.baseUrl, ip);
    const answers = await Promise.all(Array.from({ length: 4 }, () => second.upload(receipt, 'b.jpg')));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(2);
    await cancelAll(first, ids);
    await cancelAll(second, answers.filter((a) => a.status === 202).map((a) => a.body.id as string));
  });

  it('holds a free account to 5 a day with its own message', async () => {
    const v = visitor();
    await register(v);
    const answers = await burst(v);
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(5);
    expect(accepted.every((a) => a.body.lane === 'standard')).toBe(true);
    expect(answers.find((a) => a.status === 429)!.body).toEqual({
      error: 'QUOTA_EXCEEDED',
      message: 'Exceed daily limit of 5 receipts. Please upgrade to premium',
    });
    await cancelAll(v, accepted.map((a) => a.body.id as string));
  });

  it('lets a subscriber past 5 on the express lane', async () => {
    const v = visitor();
    const email = await register(v);
    await activateSubscription(deployment.services.databaseUrl, email, 'starter');
    const answers = await Promise.all(Array.from({ length: 7 }, (_, i) => v.upload(receipt, `s${i}.jpg`)));
    expect(answers.map((a) => a.status)).toEqual(Array(7).fill(202));
    expect(answers.every((a) => a.body.lane === 'express')).toBe(true);
    expect((await v.json<QuotaView>('/api/user/quota')).body).toMatchObject({ used: 7, limit: 100, canProcess: true });
    await cancelAll(v, answers.map((a) => a.body.id as string));
  });

  it('pushes quota changes live and mails a subscriber when the batch is done', async () => {
    const v = visitor();
    const email = await register(v);
    await activateSubscription(deployment.services.databaseUrl, email, 'starter');
    await v.connect();
    const quotaEvents: QuotaView[] = [];
    v.socket!.on('quota:updated', (q) => void quotaEvents.push(q));
    const { body } = await v.upload(receipt, 'ready.jpg');
    expect((await v.waitForEnd(body.id as string)).event).toBe('upload:completed');
    expect(quotaEvents[0]).toMatchObject({ used: 1, limit: 100 });
    expect(await mailsWith(email, 'Subject: Your receipts are ready')).toHaveLength(1);
    v.close();
  });

  it('registers, confirms the address, signs in and out, and reads the profile', async () => {
    const v = visitor();
    expect((await v.json('/api/user/profile')).status).toBe(401);
    const email = newEmail();
    const weak = await post(v, '/api/auth/register', { email, password: 'secret1' });
    expect(weak).toEqual({ status: 400, body: { error: 'VALIDATION_FAILED', message: AUTH_MESSAGES.passwordTooWeak } });
    const badEmail = await post(v, '/api/auth/register', { email: 'not-an-email', password: PASSWORD });
    expect(badEmail.body.message).toBe(AUTH_MESSAGES.invalidEmail);

    // Registering answers before the account exists, and signs nobody in.
    const created = await post(v, '/api/auth/register', { email: ` ${email.toUpperCase()}`, password: PASSWORD });
    expect(created).toEqual({ status: 202, body: { message: 'Account created successfully!' } });
    expect((await v.json('/api/user/profile')).status).toBe(401);
    const [confirmation] = await mailsWith(email, 'verify-email?token=');
    expect(confirmation!.decoded).toContain('Subject: Confirm your e-mail address');
    expect(confirmation!.decoded).toContain('http://receipts.test/verify-email?token=');
    const token = tokenIn(confirmation!, 'verify-email');

    // Signed in before confirming: the account says so, and confirming needs the signed-in account.
    expect(await post(visitor(), '/api/auth/verify-email', { token })).toEqual({ status: 401, body: { error: 'UNAUTHENTICATED', message: 'Authentication required' } });
    // The account's first sign-in ever is welcomed, not welcomed back (the later ones are).
    expect(await post(v, '/api/auth/login', { email, password: PASSWORD })).toMatchObject({ status: 200, body: { message: 'Welcome!' } });
    expect(await v.json<UserProfile>('/api/user/profile')).toEqual({ status: 200, body: { username: email.split('@')[0], email, userType: 'user', emailVerified: false } });
    expect(await post(v, '/api/auth/verify-email', { token: 'not-the-token' })).toEqual({
      status: 400,
      body: { error: 'INVALID_TOKEN', message: USER_MESSAGES.invalidConfirmationLink },
    });
    expect(await post(v, '/api/auth/verify-email', { token })).toMatchObject({ status: 200, body: { message: 'Your e-mail address is confirmed.', user: { emailVerified: true } } });
    expect((await v.json<UserProfile>('/api/user/profile')).body.emailVerified).toBe(true);
    // Following the link again is harmless; asking for another link is refused.
    expect(await post(v, '/api/auth/verify-email', { token })).toMatchObject({ status: 200, body: { message: 'Your e-mail address is already confirmed.' } });
    expect(await post(v, '/api/auth/resend-verification', {})).toEqual({ status: 409, body: { error: 'CONFLICT', message: 'Your e-mail address is already confirmed.' } });
    expect((await v.json('/api/user/subscription')).body).toEqual({
      planName: 'Free',
      status: 'free',
      isActive: false,
      currentPeriodEnd: null,
      receiptLimit: 5,
    });

    expect((await post(v, '/api/auth/logout', {})).status).toBe(200);
    expect((await v.json('/api/user/profile')).status).toBe(401);

    const wrong = await post(v, '/api/auth/login', { email, password: 'Wrong123' });
    expect(wrong).toEqual({ status: 401, body: { error: 'INVALID_CREDENTIALS', message: 'Invalid email or password' } });
    const unknown = await post(v, '/api/auth/login', { email: newEmail(), password: PASSWORD });
    expect(unknown).toEqual(wrong);
    const ok = await post(v, '/api/auth/login', { email, password: PASSWORD });
    expect(ok).toMatchObject({ status: 200, body: { message: 'Welcome back!', user: { email, emailVerified: true } } });
    expect((await v.json('/api/user/profile')).status).toBe(200);

    // Registering an address that has an account answers the same; the mail tells its owner.
    const again = await post(visitor(), '/api/auth/register', { email, password: 'Other1234' });
    expect(again).toEqual(created);
    const [told] = await mailsWith(email, 'already has an account');
    expect(told!.decoded).toContain('Subject: You already have a Receipts account');
    expect(told!.decoded).toContain('http://receipts.test/forgot-password');
    expect((await post(visitor(), '/api/auth/login', { email, password: 'Other1234' })).status).toBe(401);
  });

  it('sends a new confirmation link on request, which voids the older one', async () => {
    const v = visitor();
    const email = newEmail();
    const first = await signUp(v, smtp, email, PASSWORD, { confirm: false });
    expect(await post(v, '/api/auth/resend-verification', {})).toEqual({ status: 200, body: { message: `A new confirmation link is on its way to ${email}.` } });
    const links = await mailsWith(email, 'verify-email?token=', 2);
    const second = tokenIn(links[1]!, 'verify-email');
    expect(await post(v, '/api/auth/verify-email', { token: first })).toMatchObject({ status: 400, body: { error: 'INVALID_TOKEN' } });
    expect((await post(v, '/api/auth/verify-email', { token: second })).status).toBe(200);
    // Asking without being signed in gets nothing sent.
    expect((await post(visitor(), '/api/auth/resend-verification', {})).status).toBe(401);
  });

  it('resets a password through a mailed link that works once and expires', async () => {
    const v = visitor();
    const email = await register(v);
    const asked = await post(v, '/api/auth/forgot-password', { email });
    const unknown = await post(v, '/api/auth/forgot-password', { email: newEmail() });
    expect(asked).toEqual(unknown);
    expect(asked.status).toBe(200);

    const [mail] = await mailsWith(email, 'reset-password?token=');
    const token = tokenIn(mail!, 'reset-password');
    expect(mail!.decoded).toContain('http://receipts.test/reset-password?token=');

    const mismatch = await post(v, '/api/auth/reset-password', { token, password: 'NewPass1', confirmPassword: 'NewPass2' });
    expect(mismatch.body.message).toBe(AUTH_MESSAGES.passwordsDontMatch);
    const reset = await post(v, '/api/auth/reset-password', { token, password: 'NewPass1', confirmPassword: 'NewPass1' });
    expect(reset).toEqual({ status: 200, body: { message: 'Password reset successful!' } });
    // Every session of the account ended with the reset.
    expect((await v.json('/api/user/profile')).status).toBe(401);
    const reused = await post(v, '/api/auth/reset-password', { token, password: 'NewPass9', confirmPassword: 'NewPass9' });
    expect(reused).toEqual({ status: 400, body: { error: 'INVALID_TOKEN', message: 'This password reset link is invalid or has expired.' } });
    expect((await post(v, '/api/auth/login', { email, password: 'NewPass1' })).status).toBe(200);

    await post(v, '/api/auth/forgot-password', { email });
    const expiring = tokenIn((await mailsWith(email, 'reset-password?token=', 2))[1]!, 'reset-password');
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    await db.query(`UPDATE mail_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'password-reset' AND used_at IS NULL`);
    await db.end();
    const expired = await post(v, '/api/auth/reset-password', { token: expiring, password: 'NewPass2', confirmPassword: 'NewPass2' });
    expect(expired.body.error).toBe('INVALID_TOKEN');
  });

  it('keeps an anonymous visitor’s uploads through registration, and never shows them to anyone else', async () => {
    const a = visitor();
    const { body } = await a.upload(receipt, 'mine.jpg');
    const id = body.id as string;
    await register(a);
    const { body: list } = await a.json<UploadView[]>('/api/uploads');
    expect(list.map((u) => u.id)).toContain(id);

    const b = visitor();
    await register(b);
    expect((await b.json(`/api/uploads/${id}`)).status).toBe(404);
    expect((await b.json<UploadView[]>('/api/uploads')).body).toEqual([]);
    expect((await b.json(`/api/ocr/cancel/${id}`, { method: 'POST' })).status).toBe(404);
    const stranger = visitor();
    expect((await stranger.json(`/api/uploads/${id}`)).status).toBe(404);
    await cancelAll(a, [id]);
  });

  it('refuses state-changing calls without the X-Requested-With header', async () => {
    const res = await fetch(`${deployment.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: newEmail(), password: PASSWORD }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing X-Requested-With header.' });
  });

  it('detects the currency from the client address, then Accept-Language, then USD', async () => {
    const fromAddress = await new Visitor(deployment.baseUrl, '81.2.69.160').json('/api/detect-currency');
    expect(fromAddress.body).toEqual({ currency: 'GBP', country: 'GB' });
    // A private address has no country.
    const privately = () => new Visitor(deployment.baseUrl, '10.20.30.40');
    const fromLanguage = await privately().json('/api/detect-currency', { headers: { 'Accept-Language': 'fr-CA,fr;q=0.8' } });
    expect(fromLanguage.body).toEqual({ currency: 'CAD', country: 'CA' });
    expect((await privately().json('/api/detect-currency')).body).toEqual({ currency: 'USD', country: null });
  });

  it('rate-limits repeated sign-in attempts for one address', async () => {
    const v = visitor();
    const email = newEmail();
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push((await post(v, '/api/auth/login', { email, password: 'Wrong123' })).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(answers.slice(10)).toEqual([429, 429]);
  });
});
