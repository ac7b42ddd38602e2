import { spendingReportQuerySchema, type SpendingReport, type WorkspaceRole } from '@receipts/common';
import { ReceiptRepository, UserRepository, WorkspaceRepository, type ExtractedReceipt } from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriber, subscribeWorkspace } from '../../../tests/support/accounts.js';
import { extracted, openUploadStack, pngFile as png, type UploadStack } from '../../../tests/support/upload-stack.js';
import { teamWorkspace, teamScope } from '../../../tests/support/workspaces.js';
import type { Owner } from '../session.js';
import { UploadService } from '../uploads/upload.service.js';
import { SpendingReportService } from './spending-report.service.js';

// Real PostgreSQL, Redis and BullMQ; receipts stored as a worker stores them, uploaded by the
// members of one team workspace (and elsewhere), summed by the one aggregate query.
describe('spending report service', () => {
  let stack: UploadStack;
  let reports: SpendingReportService;
  const people: Record<'owner' | 'accountant' | 'member' | 'leaver', { userId: string; email: string }> = {} as never;
  let team: string;
  const inTeam = (who: keyof typeof people, role: WorkspaceRole): Owner => ({ userId: people[who].userId, anonId: null, clientIp: null, workspace: teamScope(team, role) });

  async function stored(who: Owner, fields: Partial<ExtractedReceipt>): Promise<void> {
    const service = new UploadService(stack);
    const { id } = await service.create(who, png());
    await service.stored(id);
    await stack.uploads.claim(id);
    await stack.uploads.complete(id, extracted(fields));
  }
  const report = (query: Record<string, string> = {}) => reports.report(inTeam('accountant', 'accountant'), spendingReportQuerySchema.parse(query));
  const currency = (r: SpendingReport, code: string) => r.currencies.find((c) => c.currency === code)!;

  beforeAll(async () => {
    stack = await openUploadStack();
    const { db } = stack.database;
    reports = new SpendingReportService(new ReceiptRepository(db), new WorkspaceRepository(db));
    for (const who of ['owner', 'accountant', 'member', 'leaver'] as const) people[who] = await createSubscriber(db);
    team = await teamWorkspace(db, people.owner.userId, [
      { userId: people.accountant.userId, role: 'accountant' },
      { userId: people.member.userId, role: 'member' },
      { userId: people.leaver.userId, role: 'member' },
    ]);
    await subscribeWorkspace(db, team);
    await stored(inTeam('owner', 'owner'), { currency: 'EUR', merchantName: 'Sunrise Bakery', date: '2024-03-01', category: 'grocery', total: 10 });
    await stored(inTeam('member', 'member'), { currency: 'EUR', merchantName: 'Shell', date: '2024-03-05', category: 'gas', total: 40 });
    await stored(inTeam('member', 'member'), { currency: 'EUR', merchantName: 'Sunrise Bakery', date: '2024-04-02', category: 'grocery', total: 5 });
    await stored(inTeam('accountant', 'accountant'), { currency: 'USD', merchantName: 'Staples', date: '2024-04-10', category: 'retail', total: 25.5 });
    await stored(inTeam('leaver', 'member'), { currency: 'EUR', merchantName: 'Riverside Cafe', date: '2024-04-20', category: 'restaurant', total: 7 });
    // The member's own workspace is not the team's.
    await stored({ userId: people.member.userId, anonId: null, clientIp: null }, { currency: 'EUR', merchantName: 'Private', date: '2024-03-06', category: 'other', total: 1000 });
    // An account that is gone: what it uploaded stays with the team, by no one.
    await new UserRepository(db).deleteWithData(people.leaver.userId);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('sums the workspace’s receipts per member in each currency, and names its members, owner first', async () => {
    const all = await report();
    expect(all.currencies.map((c) => [c.currency, c.total, c.receipts])).toEqual([
      ['EUR', 62, 4],
      ['USD', 25.5, 1],
    ]);
    expect(currency(all, 'EUR').members).toEqual([
      { userId: people.member.userId, email: people.member.email, total: 45, receipts: 2 },
      { userId: people.owner.userId, email: people.owner.email, total: 10, receipts: 1 },
      { userId: null, email: null, total: 7, receipts: 1 },
    ]);
    expect(currency(all, 'USD').members).toEqual([{ userId: people.accountant.userId, email: people.accountant.email, total: 25.5, receipts: 1 }]);
    expect(currency(all, 'EUR').merchants).toEqual([
      { merchant: 'Shell', total: 40, receipts: 1 },
      { merchant: 'Sunrise Bakery', total: 15, receipts: 2 },
      { merchant: 'Riverside Cafe', total: 7, receipts: 1 },
    ]);
    expect(currency(all, 'EUR').categories.map((c) => [c.category, c.total])).toEqual([
      ['gas', 40],
      ['grocery', 15],
      ['restaurant', 7],
    ]);
    // The others joined together: after the owner, in no order that matters here.
    expect(all.roster[0]).toMatchObject({ userId: people.owner.userId, email: people.owner.email, role: 'owner' });
    expect(new Map(all.roster.map((m) => [m.userId, m.role]))).toEqual(
      new Map([
        [people.owner.userId, 'owner'],
        [people.accountant.userId, 'accountant'],
        [people.member.userId, 'member'],
      ]),
    );
  });

  it('covers the period asked for, month by month', async () => {
    const march = await report({ from: '2024-03-01', to: '2024-03-31' });
    expect(march.currencies.map((c) => c.currency)).toEqual(['EUR']);
    expect(currency(march, 'EUR')).toMatchObject({
      total: 50,
      months: [{ month: '2024-03', total: 50, receipts: 2 }],
      members: [
        { userId: people.member.userId, total: 40 },
        { userId: people.owner.userId, total: 10 },
      ],
    });
    expect(currency(await report({ from: '2024-03-01' }), 'EUR').months.map((m) => [m.month, m.total])).toEqual([
      ['2024-03', 50],
      ['2024-04', 12],
    ]);
  });

  it('narrows to one member, one category or one currency', async () => {
    const member = await report({ member: people.member.userId });
    expect(member.currencies.map((c) => [c.currency, c.total, c.members.length])).toEqual([['EUR', 45, 1]]);
    expect((await report({ category: 'grocery' })).currencies.map((c) => [c.currency, c.total])).toEqual([['EUR', 15]]);
    expect((await report({ currency: 'usd' })).currencies.map((c) => c.currency)).toEqual(['USD']);
    expect((await report({ from: '2030-01-01' })).currencies).toEqual([]);
  });
});
