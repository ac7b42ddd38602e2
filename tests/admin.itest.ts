import type { UploadView } from '@receipts/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { uniqueIp, Visitor } from './support/visitor.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';

const json = (method: string, body: unknown) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('admin', () => {
  let deployment: Deployment;
  let smtp: SmtpSink;
  let boss: Visitor;
  let user: Visitor;
  const userEmail = `worker-bee-${process.pid}@example.test`;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    deployment = await Deployment.start('postgres', { ADMIN_EMAILS: 'boss@example.test', SMTP_URL: smtp.url });
    boss = new Visitor(deployment.baseUrl, uniqueIp());
    user = new Visitor(deployment.baseUrl, uniqueIp());
    // Both confirm their addresses: admin rights, given by address or by role, need a confirmed one.
    await signUp(boss, smtp, 'boss@example.test', 'Secret123');
    await signUp(user, smtp, userEmail, 'Secret123');
  });
  afterAll(async () => {
    await deployment?.stop();
    await smtp?.close();
  });

  it('keeps everyone else out', async () => {
    const anonymous = new Visitor(deployment.baseUrl, uniqueIp());
    expect((await anonymous.json('/api/admin/users')).status).toBe(401);
    expect(await user.json('/api/admin/users')).toEqual({ status: 403, body: { error: 'FORBIDDEN', message: 'Admins only.' } });
    expect((await user.request('/admin/queues')).status).toBe(403);
    expect((await boss.json<{ userType: string }>('/api/user/profile')).body.userType).toBe('admin');
    expect((await user.json<{ userType: string }>('/api/user/profile')).body.userType).toBe('user');
  });

  it('lists and searches users, and sets their type', async () => {
    const { body: found } = await boss.json<Array<{ id: string; email: string; plan: string; uploads: number }>>(`/api/admin/users?search=worker-bee`);
    expect(found).toEqual([expect.objectContaining({ email: userEmail, plan: 'free', uploads: 0, userType: 'user', emailVerified: true })]);
    const promoted = await boss.json(`/api/admin/users/${found[0]!.id}`, json('PATCH', { userType: 'admin' }));
    expect(promoted.body).toMatchObject({ userType: 'admin' });
    expect((await user.json('/api/admin/users')).status).toBe(200);
    expect((await boss.json(`/api/admin/users/${found[0]!.id}`, json('PATCH', { userType: 'root' }))).status).toBe(400);
    await boss.json(`/api/admin/users/${found[0]!.id}`, json('PATCH', { userType: 'user' }));
  });

  it('shows failures and queue depth per lane, serves the dashboard, and retries a failed upload', async () => {
    const truncated = (await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' })).subarray(0, 2000);
    await user.connect();
    const { body } = await user.upload(truncated, 'broken.jpg');
    const id = body.id as string;
    expect((await user.waitForEnd(id)).event).toBe('upload:failed');

    const { body: failures } = await boss.json<Array<{ id: string; ownerEmail: string; error: string }>>('/api/admin/uploads?status=failed');
    expect(failures.find((f) => f.id === id)).toMatchObject({ ownerEmail: userEmail, error: expect.stringMatching(/damaged or incomplete/) });
    const { body: queues } = await boss.json<{ lanes: Record<string, { waiting: number }> }>('/api/admin/queues');
    expect(Object.keys(queues.lanes).sort()).toEqual(['express', 'standard']);
    const dashboard = await boss.request('/admin/queues');
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toMatch(/<html/i);

    const before = user.eventsFor(id).length;
    const retried = await boss.json(`/api/admin/uploads/${id}/retry`, json('POST', {}));
    expect(retried.body).toEqual({ id, status: 'queued' });
    await user.waitFor(() => user.eventsFor(id).slice(before).some((e) => e.event === 'upload:failed'), 60_000, 'the retry to fail again');
    const { body: after } = await user.json<UploadView>(`/api/uploads/${id}`);
    expect(after).toMatchObject({ status: 'failed', error: expect.stringMatching(/damaged/) });
    expect((await boss.json(`/api/admin/uploads/${id}/retry`, json('POST', {}))).status).toBe(200);
    user.close();
  });
});
