import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { DEFAULT_DATEV_SETTINGS } from '@receipts/common';
import {
  AuditRepository,
  BillingRepository,
  CategoryRepository,
  createLogger,
  createMailer,
  LocalFileStore,
  MerchantRuleRepository,
  ReceiptRepository,
  UploadReadRepository,
  UploadRepository,
  UserRepository,
  WorkspaceRepository,
} from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { unzip } from '../../../tests/support/unzip.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';
import { AuditService } from '../audit/audit.service.js';
import { AccountService } from '../auth/account.service.js';
import { hashPassword } from '../auth/password.js';
import { ProfileService } from '../auth/profile.service.js';
import { CategoryService } from '../categories/category.service.js';
import { ExportService } from '../export/export.service.js';
import { MerchantRuleService } from '../rules/merchant-rule.service.js';
import { AccountDataService } from './account-data.service.js';

describe('AccountDataService: "Download my data" (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dir: string;
  let users: UserRepository;
  let workspaces: WorkspaceRepository;
  let billing: BillingRepository;
  let rules: MerchantRuleRepository;
  let data: AccountDataService;

  beforeAll(async () => {
    database = await openTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'account-data-'));
    const log = createLogger({ level: 'silent', role: 'test' });
    users = new UserRepository(database.db);
    workspaces = new WorkspaceRepository(database.db);
    billing = new BillingRepository(database.db);
    rules = new MerchantRuleRepository(database.db);
    const uploads = new UploadRepository(database.db);
    const files = new LocalFileStore(path.join(dir, 'uploads'));
    const mailer = createMailer({ from: 'Receipts <no-reply@receipts.test>', dataDir: dir, log });
    const profiles = new ProfileService(billing, new AccountService(users, uploads, mailer, []));
    const categoryRows = new CategoryRepository(database.db);
    const exports = new ExportService(new ReceiptRepository(database.db), workspaces, categoryRows, files, log);
    const categories = new CategoryService(categoryRows, workspaces);
    const audit = new AuditService(new AuditRepository(database.db));
    data = new AccountDataService(exports, new UploadReadRepository(database.db), files, { profiles, categories, rules: new MerchantRuleService(rules, categories), workspaces, audit }, log);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A JSON file of the user's download, and its text. */
  async function downloaded(userId: string, name: string): Promise<{ json: Record<string, unknown>; text: string }> {
    const user = (await users.byId(userId))!;
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await data.write(user, out);
    const text = (await unzip(Buffer.concat(chunks))).get(name)!.toString('utf8');
    return { json: JSON.parse(text) as Record<string, unknown>, text };
  }
  const accountJson = (userId: string) => downloaded(userId, 'account.json');

  it('holds the plan, the categories, the learned rules and the DATEV settings, and no secret', async () => {
    const user = (await users.insert({ email: 'keeper@example.test', username: 'keeper', passwordHash: await hashPassword('Secret123') }))!;
    await billing.setStripeCustomer(user.id, 'cus_KeeperSecretish');
    const periodEnd = new Date(Date.now() + 20 * 24 * 3600_000);
    await billing.saveSubscription({
      workspaceId: user.id,
      planId: 'professional',
      status: 'active',
      stripeSubscriptionId: 'sub_KeeperSecretish',
      currentPeriodStart: new Date(Date.now() - 10 * 24 * 3600_000),
      currentPeriodEnd: periodEnd,
      receiptLimit: 500,
    });
    await rules.learn(user.id, [
      { kind: 'merchant', match: 'ZENITH OPTICAL GALLERY', value: 'Zenith Optical' },
      { kind: 'category', match: 'Zenith Optical', value: 'pharmacy' },
    ]);
    await workspaces.saveDatevSettings({ workspaceId: user.id, actorId: user.id }, { ...DEFAULT_DATEV_SETTINGS, consultantNumber: 4711, clientNumber: 815 });
    await new CategoryRepository(database.db).add({ workspaceId: user.id, actorId: user.id }, 'Eyewear', '4985');

    const { json, text } = await accountJson(user.id);
    expect((json.categories as Array<Record<string, unknown>>).filter((c) => !c.builtIn)).toEqual([{ name: 'Eyewear', builtIn: false, datevAccount: '4985', receipts: 0 }]);
    expect(json).toMatchObject({
      email: 'keeper@example.test',
      username: 'keeper',
      subscription: { planName: 'Professional', status: 'active', isActive: true, currentPeriodEnd: periodEnd.toISOString(), receiptLimit: 500 },
      datevSettings: { saved: true, settings: { ...DEFAULT_DATEV_SETTINGS, consultantNumber: 4711, clientNumber: 815 } },
    });
    expect((json.learnedRules as Array<Record<string, unknown>>).map(({ kind, match, value }) => ({ kind, match, value }))).toEqual(
      expect.arrayContaining([
        { kind: 'merchant', match: 'ZENITH OPTICAL GALLERY', value: 'Zenith Optical' },
        { kind: 'category', match: 'Zenith Optical', value: 'pharmacy' },
      ]),
    );
    expect(json.learnedRules).toHaveLength(2);
    expect(text).not.toContain(user.passwordHash);
    expect(text).not.toMatch(/passwordHash|cus_|sub_|stripe/i);
  });

  it('says Free, no rules and the default DATEV settings for an account that set none', async () => {
    const user = (await users.insert({ email: 'fresh@example.test', username: 'fresh', passwordHash: await hashPassword('Secret123') }))!;
    const { json } = await accountJson(user.id);
    expect(json).toMatchObject({
      subscription: { planName: 'Free', status: 'free', isActive: false, currentPeriodEnd: null },
      learnedRules: [],
      datevSettings: { saved: false, settings: DEFAULT_DATEV_SETTINGS },
    });
  });

  it('holds in audit.json what the person did in every workspace, with its name, and nothing anyone else did', async () => {
    const [person, colleague] = [
      (await users.insert({ email: 'doer@example.test', username: 'doer', passwordHash: 'x' }))!,
      (await users.insert({ email: 'colleague@example.test', username: 'colleague', passwordHash: 'x' }))!,
    ];
    const team = await teamWorkspace(database.db, colleague.id, [{ userId: person.id, role: 'admin' }], 'Acme GmbH');
    const categoryRows = new CategoryRepository(database.db);
    await categoryRows.add({ workspaceId: person.id, actorId: person.id }, 'Eyewear', null);
    await categoryRows.add({ workspaceId: team, actorId: person.id }, 'Travel', null);
    // The colleague's acts, in the same workspace and about the person's category, are the workspace's, not the person's.
    await categoryRows.update({ workspaceId: team, actorId: colleague.id }, 'Travel', { name: 'Trips' });
    await workspaces.rename({ workspaceId: team, actorId: colleague.id }, 'Acme AG');

    const { json, text } = await downloaded(person.id, 'audit.json');
    expect(json.events).toEqual([
      { id: expect.any(String), action: 'settings.changed', subject: null, detail: { setting: 'category', change: 'added', name: 'Eyewear', datevAccount: null }, at: expect.any(String), workspace: { id: person.id, name: 'doer' } },
      { id: expect.any(String), action: 'settings.changed', subject: null, detail: { setting: 'category', change: 'added', name: 'Travel', datevAccount: null }, at: expect.any(String), workspace: { id: team, name: 'Acme AG' } },
    ]);
    expect(text).not.toContain('colleague');
    expect(text).not.toContain('Trips');
    // The colleague's download holds their two; someone who did nothing gets an empty list.
    expect((await downloaded(colleague.id, 'audit.json')).json.events).toHaveLength(2);
    const idle = (await users.insert({ email: 'idle@example.test', username: 'idle', passwordHash: 'x' }))!;
    expect((await downloaded(idle.id, 'audit.json')).json).toEqual({ events: [] });
  });
});
