import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger, createMailer, UploadRepository, UserRepository } from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
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
    const accounts = new AccountService(users, new UploadRepository(database.db), mailer, 'http://localhost:3000', ['boss@example.test']);
    settings = new AccountSettingsService(users, accounts);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  it('moves a confirmed account to an address it must confirm again, and mails that address a link', async () => {
    const inserted = await users.insert({ email: 'old@example.test', username: 'old', passwordHash: await hashPassword('Secret123') });
    // Confirmed the way a followed link confirms it.
    await users.addConfirmationToken({ tokenHash: 'h1', userId: inserted!.id, expiresAt: new Date(Date.now() + 60_000) });
    expect(await users.confirmEmail('h1', inserted!.id)).toBe(true);
    const confirmed = (await users.byId(inserted!.id))!;
    expect(confirmed.emailVerifiedAt).not.toBeNull();

    await settings.changeEmail(confirmed, 'boss@example.test', 'Secret123');

    const moved = (await users.byId(inserted!.id))!;
    expect(moved.email).toBe('boss@example.test');
    // An admin address gives nothing until it is proven.
    expect(moved.emailVerifiedAt).toBeNull();
    expect(moved.createdBeforeVerification).toBe(false);
    const mails = await readdir(path.join(mailDir, 'mail'));
    expect(mails).toHaveLength(1);
    const mail = await readFile(path.join(mailDir, 'mail', mails[0]!), 'utf8');
    expect(mail).toMatch(/^To: boss@example\.test/m);
    expect(mail).toContain('/verify-email?token=');
  });
});
