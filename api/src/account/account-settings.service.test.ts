import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger, createMailer, schema, UploadRepository, UserRepository } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { decodeMail } from '../../../tests/support/smtp-sink.js';
import { AccountService } from '../auth/account.service.js';
import { hashPassword } from '../auth/password.js';
import { AccountSettingsService } from './account-settings.service.js';

describe('AccountSettingsService.changeEmail (real PostgreSQL, mail written to files)', () => {
  let database: TestDatabase;
  let users: UserRepository;
  let settings: AccountSettingsService;
  let mailDir: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    users = new UserRepository(database.db);
    mailDir = await mkdtemp(path.join(os.tmpdir(), 'settings-mail-'));
    const mailer = createMailer({ from: 'Receipts <no-reply@receipts.test>', dataDir: mailDir, log: createLogger({ level: 'silent', role: 'test' }) });
    const accounts = new AccountService(users, new UploadRepository(database.db), mailer, ['boss@example.test']);
    settings = new AccountSettingsService(users, accounts);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  const mailsTo = async (address: string) => {
    const files = await readdir(path.join(mailDir, 'mail')).catch(() => []);
    const mails = await Promise.all(files.map(async (f) => decodeMail(await readFile(path.join(mailDir, 'mail', f), 'utf8'))));
    return mails.filter((m) => new RegExp(`^To: ${address.replace(/\./g, '\\.')}`, 'm').test(m));
  };

  it('moves a confirmed account to an address it must confirm again, mails that address a link and the old one a notice', async () => {
    const inserted = await users.insert({ email: 'old@example.test', username: 'old', passwordHash: await hashPassword('Secret123') });
    // Confirmed the way a followed link confirms it.
    await users.addMailToken('email-verification', { tokenHash: 'h1', userId: inserted!.id, email: 'old@example.test', expiresAt: new Date(Date.now() + 60_000) });
    expect(await users.confirmEmail('h1', inserted!.id)).toBe(true);
    const confirmed = (await users.byId(inserted!.id))!;
    expect(confirmed.emailVerifiedAt).not.toBeNull();

    const answered = await settings.changeEmail(confirmed, 'boss@example.test', 'Secret123', 'the-asking-session', 'http://192.168.1.20:3000');
    expect(answered).toMatchObject({ email: 'boss@example.test', emailVerifiedAt: null });

    const moved = (await users.byId(inserted!.id))!;
    expect(moved.email).toBe('boss@example.test');
    // An admin address gives nothing until it is proven.
    expect(moved.emailVerifiedAt).toBeNull();
    expect(moved.createdBeforeVerification).toBe(false);
    const [link] = await mailsTo('boss@example.test');
    expect(link).toMatch(/^http:\/\/192\.168\.1\.20:3000\/verify-email\?token=[\w-]{43}$/m);
    const [notice] = await mailsTo('old@example.test');
    expect(notice).toContain('Subject: Your e-mail address was changed');
    expect(notice).toContain('changed to boss@example.test');
    expect(notice).toContain('http://192.168.1.20:3000/forgot-password');
  });

  it('confirms only the address a link was mailed to, even when the address changed without voiding it', async () => {
    const user = (await users.insert({ email: 'first@example.test', username: 'first', passwordHash: 'x' }))!;
    await users.addMailToken('email-verification', { tokenHash: 'h-first', userId: user.id, email: 'first@example.test', expiresAt: new Date(Date.now() + 60_000) });
    // The address moved behind the link's back (as a change racing the confirmation would, before voiding links).
    await database.db.update(schema.users).set({ email: 'second@example.test' }).where(eq(schema.users.id, user.id));
    expect(await users.confirmEmail('h-first', user.id)).toBe(false);
    expect((await users.byId(user.id))!.emailVerifiedAt).toBeNull();
  });

  it('never confirms the new address when a confirmation races the change, over many concurrent rounds', async () => {
    for (let round = 0; round < 30; round++) {
      const user = (await users.insert({ email: `race${round}@example.test`, username: 'race', passwordHash: 'x' }))!;
      await users.addMailToken('email-verification', { tokenHash: `h-race-${round}`, userId: user.id, email: user.email, expiresAt: new Date(Date.now() + 60_000) });
      const [confirmed] = await Promise.all([users.confirmEmail(`h-race-${round}`, user.id), users.changeEmail(user.id, `race${round}-admin@example.test`, 'none')]);
      const after = (await users.byId(user.id))!;
      expect(after.email).toBe(`race${round}-admin@example.test`);
      // Whichever came first, the new address is not proven by a link to the old one.
      expect(after.emailVerifiedAt, `round ${round}, confirmed ${confirmed}`).toBeNull();
    }
  });
});
