import { APPROVAL_MESSAGES, APPROVAL_MOVES, APPROVAL_STATUSES, mayApprovalMove, type ApprovalMove, type ApprovalStatus, type WorkspaceRole } from '@receipts/common';
import { ApprovalRepository, AuditRepository, CategoryRepository, createMailer, ReceiptRepository, schema, UserRepository, WorkspaceRepository } from '@receipts/infra';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriber, subscribeWorkspace } from '../../../tests/support/accounts.js';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink.js';
import { extracted, openUploadStack, pngFile, type UploadStack } from '../../../tests/support/upload-stack.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';
import { AuditService } from '../audit/audit.service.js';
import { ExportService } from '../export/export.service.js';
import { HttpError } from '../http-error.js';
import type { Owner } from '../session.js';
import { UploadService } from '../uploads/upload.service.js';
import { ApprovalService } from './approval.service.js';

// Real PostgreSQL, Redis and an SMTP server: the guarded moves of the approval step, each tried
// from every status, and racing moves of which exactly one wins.
describe('approval service: guarded moves', () => {
  let stack: UploadStack;
  let smtp: SmtpSink;
  let service: ApprovalService;
  let workspaceId: string;
  let people: Record<'owner' | 'accountant' | 'member', Owner>;

  const actingAs = (userId: string, role: WorkspaceRole): Owner => ({ userId, anonId: null, clientIp: null, workspace: { id: workspaceId, role, personal: false } });

  beforeAll(async () => {
    stack = await openUploadStack();
    smtp = await startSmtpSink();
    const { db } = stack.database;
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'receipts@example.test', dataDir: stack.storage, log: stack.log });
    const receipts = new ReceiptRepository(db);
    const exports = new ExportService(receipts, new WorkspaceRepository(db), new CategoryRepository(db), stack.files, stack.log);
    service = new ApprovalService(new ApprovalRepository(db), receipts, exports, new AuditService(new AuditRepository(db)), new UserRepository(db), mailer, stack.log);
    const [owner, accountant, member] = [await createSubscriber(db), await createSubscriber(db), await createSubscriber(db)];
    workspaceId = await teamWorkspace(db, owner.userId, [
      { userId: accountant.userId, role: 'accountant' },
      { userId: member.userId, role: 'member' },
    ]);
    // The plan is the workspace's: its members upload on it, not on their own.
    await subscribeWorkspace(db, workspaceId);
    people = { owner: actingAs(owner.userId, 'owner'), accountant: actingAs(accountant.userId, 'accountant'), member: actingAs(member.userId, 'member') };
  }, 120_000);

  afterAll(async () => {
    await smtp?.close();
    await stack?.close();
  });

  /** A finished receipt uploaded by `owner` in the team workspace; its receipt id and upload id. */
  async function receipt(owner: Owner): Promise<{ id: string; uploadId: string }> {
    const uploads = new UploadService(stack);
    const { id: uploadId } = await uploads.create(owner, pngFile());
    await uploads.stored(uploadId);
    await stack.uploads.claim(uploadId);
    const row = await stack.uploads.complete(uploadId, extracted({ merchantName: 'Kiosk', date: '2024-06-01' }));
    return { id: row!.id, uploadId };
  }

  const statusOf = async (uploadId: string) => (await stack.database.db.select({ s: schema.uploads.approvalStatus }).from(schema.uploads).where(eq(schema.uploads.id, uploadId)))[0]!.s;
  const put = (uploadId: string, approvalStatus: ApprovalStatus) => stack.database.db.update(schema.uploads).set({ approvalStatus }).where(eq(schema.uploads.id, uploadId));
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => {
        if (err instanceof HttpError) return { status: err.status, message: err.message };
        throw err;
      },
    );
  const move = (name: ApprovalMove, id: string) =>
    name === 'submit' ? service.submit(people.member, id) : service.decide(people.accountant, id, name, name === 'reject' ? 'fix it' : undefined, 'http://app.test');

  it('starts a member’s upload as a draft and the others’ as needing no approval', async () => {
    expect(await statusOf((await receipt(people.member)).uploadId)).toBe('draft');
    expect(await statusOf((await receipt(people.accountant)).uploadId)).toBe('not-required');
    expect(await statusOf((await receipt(people.owner)).uploadId)).toBe('not-required');
  });

  it('moves only from the statuses each move starts from; from any other it changes nothing and answers 409', async () => {
    for (const name of Object.keys(APPROVAL_MOVES) as ApprovalMove[]) {
      for (const from of APPROVAL_STATUSES) {
        const { id, uploadId } = await receipt(people.member);
        await put(uploadId, from);
        const outcome = await refusal(move(name, id));
        if (mayApprovalMove(name, from)) {
          expect(outcome, `${name} from ${from}`).toBeNull();
          expect(await statusOf(uploadId)).toBe({ submit: 'submitted', approve: 'approved', reject: 'rejected' }[name]);
        } else {
          expect(outcome, `${name} from ${from}`).toMatchObject({ status: 409 });
          expect(await statusOf(uploadId)).toBe(from);
        }
      }
    }
  });

  it('lets exactly one of two racing decisions win: one notification, one audit event, one e-mail', async () => {
    const { id, uploadId } = await receipt(people.member);
    await service.submit(people.member, id);
    const mailsBefore = smtp.mails.length;
    const outcomes = await Promise.all([
      refusal(service.decide(people.accountant, id, 'approve', undefined, 'http://app.test')),
      refusal(service.decide(people.owner, id, 'reject', 'Wrong project', 'http://app.test')),
    ]);
    expect(outcomes.filter((o) => o === null)).toHaveLength(1);
    expect(outcomes.find((o) => o !== null)).toEqual({ status: 409, message: APPROVAL_MESSAGES.notSubmitted });
    const won = outcomes[0] === null ? 'approved' : 'rejected';
    expect(await statusOf(uploadId)).toBe(won);
    const { db } = stack.database;
    const notices = await db.select().from(schema.notifications).where(eq(schema.notifications.subject, id));
    expect(notices.map((n) => n.kind)).toEqual([`receipt.${won}`]);
    const decisions = await db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.subject, uploadId), inArray(schema.auditEvents.action, ['receipt.approved', 'receipt.rejected'])));
    expect(decisions.map((d) => d.action)).toEqual([`receipt.${won}`]);
    // The decision's mail is handed to the server before the decision answers.
    const [member] = await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, people.member.userId!));
    expect(smtp.mails.slice(mailsBefore).map((m) => m.to)).toEqual([[member!.email]]);
  });

  it('lets a report and a single submission of the same draft race: one wins, and a lost report leaves nothing behind', async () => {
    const { id, uploadId } = await receipt(people.member);
    const before = await stack.database.db.select().from(schema.expenseReports).where(eq(schema.expenseReports.workspaceId, workspaceId));
    const outcomes = await Promise.all([refusal(service.submit(people.member, id)), refusal(service.submitReport(people.member, { name: 'June', from: '2024-06-01', to: '2024-06-30', receiptIds: [id] }))]);
    expect(outcomes.filter((o) => o === null)).toHaveLength(1);
    expect(await statusOf(uploadId)).toBe('submitted');
    const after = await stack.database.db.select().from(schema.expenseReports).where(eq(schema.expenseReports.workspaceId, workspaceId));
    expect(after.length - before.length).toBe(outcomes[1] === null ? 1 : 0);
  });

  it('refuses to submit a receipt while it is read again', async () => {
    const { id, uploadId } = await receipt(people.member);
    await stack.database.db.update(schema.uploads).set({ status: 'queued' }).where(eq(schema.uploads.id, uploadId));
    expect(await refusal(service.submit(people.member, id))).toEqual({ status: 409, message: APPROVAL_MESSAGES.busy });
    expect(await refusal(service.submitReport(people.member, { name: 'Busy', from: '2024-06-01', to: '2024-06-30', receiptIds: [id] }))).toEqual({ status: 409, message: APPROVAL_MESSAGES.busy });
    expect(await statusOf(uploadId)).toBe('draft');
  });
});
