import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { APPROVAL_MESSAGES, WORKSPACE_MESSAGES, rejectBodySchema, type WorkspaceRole } from '@receipts/common';
import { schema } from '@receipts/infra';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalid, withRouteApi, type Caller } from '../../../tests/support/route-api.js';
import { decodeMail } from '../../../tests/support/smtp-sink.js';
import { subscribeWorkspace } from '../../../tests/support/accounts.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';

type Team = Record<'owner' | 'accountant' | 'member' | 'colleague', Caller> & { id: string };

// The submit → approve step over HTTP on the real api and database: who may do what is the
// policy's (workspaceAllows), each move guarded, the member told in the app and by e-mail.
describe('approval routes', () => {
  const api = withRouteApi();
  let team: Team;

  /** Signed-in callers in a team workspace of their own, each acting in it. */
  async function newTeam(): Promise<Team> {
    // Subscribers: the free daily allowance is not what these tests are about.
    const [owner, accountant, member, colleague] = [await api.signedIn('subscriber'), await api.signedIn('subscriber'), await api.signedIn('subscriber'), await api.signedIn('subscriber')];
    const names: Array<[Caller, string]> = [[owner, 'Olivia'], [accountant, 'Alex'], [member, 'Mia'], [colleague, 'Cole']];
    for (const [caller, username] of names) await api.runtime.db.update(schema.users).set({ username }).where(eq(schema.users.id, caller.userId!));
    const id = await teamWorkspace(
      api.runtime.db,
      owner.userId!,
      [
        { userId: accountant.userId!, role: 'accountant' },
        { userId: member.userId!, role: 'member' },
        { userId: colleague.userId!, role: 'member' },
      ],
      'Acme',
    );
    // The plan is the workspace's: its members upload on it, not on their own.
    await subscribeWorkspace(api.runtime.db, id);
    for (const caller of [owner, accountant, member, colleague]) expect((await caller.put('/api/workspaces/current', { workspaceId: id })).status).toBe(200);
    return { id, owner, accountant, member, colleague };
  }

  const setRole = (userId: string, role: WorkspaceRole) =>
    api.runtime.db.update(schema.workspaceMembers).set({ role }).where(and(eq(schema.workspaceMembers.workspaceId, team.id), eq(schema.workspaceMembers.userId, userId)));

  /** The e-mails written so far to `email` (no SMTP_URL: the mailer writes .eml files), decoded. */
  async function mailsTo(email: string): Promise<string[]> {
    const dir = path.join(api.runtime.config.DATA_DIR, 'mail');
    const files = await readdir(dir).catch(() => [] as string[]);
    const mails = await Promise.all(files.map(async (f) => decodeMail(await readFile(path.join(dir, f), 'utf8'))));
    return mails.filter((m) => m.includes(`To: ${email}`));
  }

  const approvalOf = async (caller: Caller, receiptId: string) => (await caller.get(`/api/receipts/${receiptId}`)).body.approval;

  beforeAll(async () => {
    team = await newTeam();
  });

  it('makes a member’s receipt a draft and anyone else’s need no approval; a personal workspace skips the step', async () => {
    const draft = await api.receipt(team.member);
    const owners = await api.receipt(team.owner);
    const accountants = await api.receipt(team.accountant);
    expect(await approvalOf(team.member, draft)).toEqual({ status: 'draft', comment: null, decidedBy: null, decidedAt: null, submittedAt: null, reportId: null });
    expect((await approvalOf(team.owner, owners)).status).toBe('not-required');
    expect((await approvalOf(team.accountant, accountants)).status).toBe('not-required');
    const solo = await api.signedIn();
    const personal = await api.receipt(solo);
    expect((await approvalOf(solo, personal)).status).toBe('not-required');
    expect(await solo.post(`/api/receipts/${personal}/submit`)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: WORKSPACE_MESSAGES.roleForbids } });
    // Only members submit: the others' receipts count as they are.
    expect(await team.owner.post(`/api/receipts/${owners}/submit`)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } });
  });

  it('lets a member submit, an accountant approve, and tells the member in the app and by e-mail', async () => {
    const id = await api.receipt(team.member, { merchantName: 'Corner Cafe', date: '2024-03-05', total: 12.5, currency: 'EUR' });
    const submitted = await team.member.post(`/api/receipts/${id}/submit`);
    expect(submitted).toMatchObject({ status: 200, body: { id, approval: { status: 'submitted', reportId: null } } });
    expect(submitted.body.approval.submittedAt).toEqual(expect.any(String));

    const queue = await team.accountant.get('/api/approvals');
    expect(queue.status).toBe(200);
    expect(queue.body.receipts).toContainEqual(expect.objectContaining({ id, submitter: 'Mia', approval: expect.objectContaining({ status: 'submitted' }) }));
    // The member neither sees the queue nor decides.
    expect(await team.member.get('/api/approvals')).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } });
    expect((await team.member.post(`/api/receipts/${id}/approve`, {})).status).toBe(403);
    expect((await team.colleague.post(`/api/receipts/${id}/approve`, {})).status).toBe(403);

    const approved = await team.accountant.post(`/api/receipts/${id}/approve`, { comment: 'Thanks' });
    expect(approved).toMatchObject({ status: 200, body: { approval: { status: 'approved', comment: 'Thanks', decidedBy: 'Alex' } } });
    expect((await team.accountant.get('/api/approvals')).body.receipts.map((r: { id: string }) => r.id)).not.toContain(id);

    const told = await team.member.get('/api/notifications');
    expect(told).toMatchObject({ status: 200, body: { unread: 1, items: [{ kind: 'receipt.approved', subject: id, workspaceId: team.id, read: false }] } });
    expect(told.body.items[0].text).toBe('Alex approved your receipt from Corner Cafe (2024-03-05, €12.50) in Acme. “Thanks”');
    const mails = await mailsTo(team.member.email!);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Subject: Your receipt was approved');
    expect(mails[0]).toContain('approved your receipt from Corner Cafe');
    // Nobody else is told, and reading them marks them read.
    expect((await team.colleague.get('/api/notifications')).body).toEqual({ items: [], unread: 0 });
    expect((await team.colleague.post('/api/notifications/read', { ids: [told.body.items[0].id] })).status).toBe(204);
    expect((await team.member.get('/api/notifications')).body.unread).toBe(1);
    expect((await team.member.post('/api/notifications/read', {})).status).toBe(204);
    expect((await team.member.get('/api/notifications')).body).toMatchObject({ unread: 0, items: [{ read: true }] });

    // An act on a receipt names its upload, as every receipt's act in the trail does.
    const audit = await api.runtime.db.select().from(schema.auditEvents).where(and(eq(schema.auditEvents.workspaceId, team.id), eq(schema.auditEvents.subject, submitted.body.uploadId)));
    expect(audit.map((e) => [e.action, e.actorId, e.detail])).toEqual(
      expect.arrayContaining([
        ['receipt.submitted', team.member.userId, { filename: 'receipt.png', reportId: null }],
        ['receipt.approved', team.accountant.userId, { filename: 'receipt.png', reportId: null, comment: 'Thanks' }],
      ]),
    );
  });

  it('answers moves from the wrong state with 409 and a rejection without a comment with 400', async () => {
    const id = await api.receipt(team.member);
    expect(await team.accountant.post(`/api/receipts/${id}/approve`, {})).toMatchObject({ status: 409, body: { error: 'CONFLICT', message: APPROVAL_MESSAGES.notSubmitted } });
    expect((await team.member.post(`/api/receipts/${id}/submit`)).status).toBe(200);
    expect(await team.member.post(`/api/receipts/${id}/submit`)).toMatchObject({ status: 409, body: { error: 'CONFLICT', message: APPROVAL_MESSAGES.notSubmittable } });
    for (const body of [{}, { comment: '   ' }]) expect(await team.accountant.post(`/api/receipts/${id}/reject`, body)).toEqual(expect.objectContaining(invalid(rejectBodySchema, body)));
    expect((await team.owner.post(`/api/receipts/${id}/approve`, {})).status).toBe(200);
    expect((await team.accountant.post(`/api/receipts/${id}/reject`, { comment: 'late' })).status).toBe(409);
    expect((await team.accountant.post(`/api/receipts/${id}/approve`, {})).status).toBe(409);
    // Another member's receipt is not the colleague's to submit: as if it did not exist.
    const other = await api.receipt(team.member);
    expect(await team.colleague.post(`/api/receipts/${other}/submit`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
    expect((await team.accountant.post('/api/receipts/00000000-0000-4000-8000-000000000000/approve', {})).status).toBe(404);
  });

  it('lets a member correct and resubmit a rejected receipt, and locks it while submitted', async () => {
    const id = await api.receipt(team.member, { merchantName: 'Taxi', total: 80 });
    await team.member.post(`/api/receipts/${id}/submit`);
    expect(await team.member.patch(`/api/receipts/${id}`, { total: 8 })).toMatchObject({ status: 409, body: { error: 'CONFLICT', message: APPROVAL_MESSAGES.locked } });
    const rejected = await team.accountant.post(`/api/receipts/${id}/reject`, { comment: 'The total is 8, not 80.' });
    expect(rejected).toMatchObject({ status: 200, body: { approval: { status: 'rejected', comment: 'The total is 8, not 80.' } } });
    const told = (await team.member.get('/api/notifications')).body.items[0];
    expect(told).toMatchObject({ kind: 'receipt.rejected', subject: id });
    expect((await mailsTo(team.member.email!)).some((m) => m.includes('Subject: Your receipt was rejected') && m.includes('submit it again'))).toBe(true);

    expect(await team.member.patch(`/api/receipts/${id}`, { total: 8 })).toMatchObject({ status: 200, body: { total: 8, approval: { status: 'rejected' } } });
    expect(await team.member.post(`/api/receipts/${id}/submit`)).toMatchObject({ status: 200, body: { approval: { status: 'submitted', comment: 'The total is 8, not 80.' } } });
    // An approver reviewing it may correct it; then approve it.
    expect((await team.accountant.patch(`/api/receipts/${id}`, { tags: ['travel'] })).status).toBe(200);
    expect((await team.accountant.post(`/api/receipts/${id}/approve`, {})).body.approval).toMatchObject({ status: 'approved', comment: null });
    expect((await team.member.patch(`/api/receipts/${id}`, { total: 9 })).status).toBe(409);
  });

  it('never lets anyone approve a receipt they uploaded, even after their role changed', async () => {
    const promoted = await newTeam();
    const id = await api.receipt(promoted.member);
    await promoted.member.post(`/api/receipts/${id}/submit`);
    const saved = team;
    team = promoted;
    try {
      await setRole(promoted.member.userId!, 'accountant');
      expect(await promoted.member.post(`/api/receipts/${id}/approve`, {})).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: APPROVAL_MESSAGES.ownReceipt } });
      expect((await promoted.member.post(`/api/receipts/${id}/reject`, { comment: 'no' })).status).toBe(403);
      // Their own receipt is not in the queue they now see; the owner still decides it.
      expect((await promoted.member.get('/api/approvals')).body.receipts).toEqual([]);
      expect((await promoted.owner.post(`/api/receipts/${id}/approve`, {})).status).toBe(200);
    } finally {
      team = saved;
    }
  });

  it('submits a report of the period’s drafts; an approver decides per receipt and as a whole, and downloads it', async () => {
    const ids = [
      await api.receipt(team.colleague, { merchantName: 'Hotel', date: '2024-04-02', total: 120, currency: 'EUR' }),
      await api.receipt(team.colleague, { merchantName: 'Train', date: '2024-04-20', total: 40, currency: 'EUR' }),
      await api.receipt(team.colleague, { merchantName: 'Lunch', date: '2024-04-21', total: 15, currency: 'USD' }),
      await api.receipt(team.colleague, { merchantName: 'May lunch', date: '2024-05-02', total: 9 }),
    ];
    const made = await team.colleague.post('/api/reports', { name: 'April travel', from: '2024-04-01', to: '2024-04-30' });
    expect(made).toMatchObject({ status: 201, body: { name: 'April travel', status: 'submitted', receipts: 3, submitter: 'Cole' } });
    expect(made.body.totals).toEqual([
      { currency: 'EUR', total: 160 },
      { currency: 'USD', total: 15 },
    ]);
    const reportId = made.body.id;
    expect(made.body.items.map((i: { id: string }) => i.id).toSorted()).toEqual(ids.slice(0, 3).toSorted());
    expect((await approvalOf(team.colleague, ids[3]!)).status).toBe('draft');
    expect((await team.colleague.get('/api/reports')).body.reports).toEqual([expect.objectContaining({ id: reportId, status: 'submitted' })]);
    // The period holds no more drafts.
    expect(await team.colleague.post('/api/reports', { name: 'Again', from: '2024-04-01', to: '2024-04-30' })).toMatchObject({ status: 409, body: { message: APPROVAL_MESSAGES.nothingToSubmit } });
    // Another member sees no report of the colleague's; an approver does.
    expect((await team.member.get(`/api/reports/${reportId}`)).status).toBe(404);
    expect((await team.accountant.get(`/api/reports/${reportId}`)).body.items).toHaveLength(3);

    const queue = (await team.accountant.get('/api/approvals')).body;
    expect(queue.reports).toContainEqual(expect.objectContaining({ id: reportId, items: expect.arrayContaining([expect.objectContaining({ id: ids[0] })]) }));
    // Its receipts are decided with it, not listed alone.
    expect(queue.receipts.map((r: { id: string }) => r.id)).not.toContain(ids[0]);

    expect((await team.accountant.post(`/api/receipts/${ids[2]}/reject`, { comment: 'Not a business lunch.' })).status).toBe(200);
    expect((await team.accountant.get(`/api/reports/${reportId}`)).body.status).toBe('submitted');
    const decided = await team.accountant.post(`/api/reports/${reportId}/approve`, {});
    expect(decided).toMatchObject({ status: 200, body: { status: 'partly-approved', decidedBy: 'Alex' } });
    expect(decided.body.items.map((i: { approval: { status: string } }) => i.approval.status).toSorted()).toEqual(['approved', 'approved', 'rejected']);
    expect((await team.accountant.post(`/api/reports/${reportId}/reject`, { comment: 'x' })).status).toBe(409);
    const told = (await team.colleague.get('/api/notifications')).body.items.map((n: { kind: string }) => n.kind);
    expect(told).toEqual(['report.approved', 'receipt.rejected']);

    // The rejected lunch, corrected and submitted again, goes back into its report.
    await team.colleague.patch(`/api/receipts/${ids[2]}`, { category: 'meals' });
    expect((await team.colleague.post(`/api/receipts/${ids[2]}/submit`)).body.approval).toMatchObject({ status: 'submitted', reportId });
    expect((await team.colleague.get(`/api/reports/${reportId}`)).body.status).toBe('submitted');
    expect((await team.accountant.post(`/api/receipts/${ids[2]}/approve`, {})).status).toBe(200);
    expect((await team.colleague.get(`/api/reports/${reportId}`)).body).toMatchObject({ status: 'approved', decidedAt: expect.any(String) });

    const pdf = await fetchFile(team.accountant, `/api/reports/${reportId}/export?format=pdf`);
    expect(pdf).toMatchObject({ status: 200, type: 'application/pdf' });
    expect(pdf.disposition).toContain('April-travel.pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await fetchFile(team.accountant, `/api/reports/${reportId}/export?format=xlsx`);
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Receipts')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const approvalAt = header.indexOf('approval') + 1;
    expect(approvalAt).toBeGreaterThan(0);
    expect(sheet.rowCount).toBe(4);
    expect([2, 3, 4].map((r) => sheet.getRow(r).getCell(approvalAt).value)).toEqual(['Approved', 'Approved', 'Approved']);
    // Downloads are an approver's.
    expect((await fetchFile(team.colleague, `/api/reports/${reportId}/export`)).status).toBe(403);
  });

  it('submits a report of listed receipts all or nothing, and filters the library by approval', async () => {
    const [a, b] = [await api.receipt(team.member), await api.receipt(team.member)];
    await team.member.post(`/api/receipts/${b}/submit`);
    expect(await team.member.post('/api/reports', { name: 'Mixed', from: '2024-01-01', to: '2024-01-31', receiptIds: [a, b] })).toMatchObject({
      status: 409,
      body: { message: APPROVAL_MESSAGES.notSubmittable },
    });
    expect((await approvalOf(team.member, a)).status).toBe('draft');
    expect((await team.member.get('/api/reports')).body.reports.map((r: { name: string }) => r.name)).not.toContain('Mixed');
    const other = await api.receipt(team.colleague);
    expect((await team.member.post('/api/reports', { name: 'Theirs', from: '2024-01-01', to: '2024-01-31', receiptIds: [a, other] })).status).toBe(404);
    expect(await team.member.post('/api/reports', { name: 'Bad', from: '2024-02-01', to: '2024-01-01' })).toMatchObject({ status: 400, body: { message: APPROVAL_MESSAGES.periodOrder } });

    const drafts = await team.member.get('/api/receipts?approval=draft&pageSize=200');
    expect(drafts.body.items.map((r: { id: string }) => r.id)).toContain(a);
    expect(drafts.body.items.every((r: { approval: { status: string } }) => r.approval.status === 'draft')).toBe(true);
    expect((await team.member.get('/api/receipts?approval=submitted&pageSize=200')).body.items.map((r: { id: string }) => r.id)).toContain(b);
  });

  it('is for signed-in callers acting in a team workspace', async () => {
    const anonymous = api.anonymous();
    expect((await anonymous.get('/api/approvals')).status).toBe(401);
    expect((await anonymous.get('/api/notifications')).status).toBe(401);
    expect((await anonymous.post('/api/reports', { name: 'x', from: '2024-01-01', to: '2024-01-02' })).status).toBe(401);
    // Someone outside the team, in their own workspace, has nothing to approve and sees nothing of it.
    const stranger = await api.signedIn();
    const id = await api.receipt(team.member);
    await team.member.post(`/api/receipts/${id}/submit`);
    expect((await stranger.get('/api/approvals')).status).toBe(403);
    expect((await stranger.put('/api/workspaces/current', { workspaceId: team.id })).status).toBe(404);
  });

  async function fetchFile(caller: Caller, url: string) {
    const res = await caller.visitor.request(url, { method: 'GET' });
    return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
  }
});
