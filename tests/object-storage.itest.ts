import { existsSync } from 'node:fs';
import path from 'node:path';
import type { UploadView } from '@receipts/common';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUnconfirmed } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';
import { logLines } from './support/process-output.js';
import { until } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';

const PASSWORD = 'Secret123';
const json = (body: unknown): RequestInit => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/**
 * STORAGE=s3: the api and a worker that share PostgreSQL, Redis and a bucket (the real AWS SDK
 * against an S3-compatible server on 127.0.0.1) and no disk. Uploads are read from the bucket,
 * the pictures of their pages the worker draws for review are kept there, and every way an
 * original goes (retention, deleting an upload, deleting the account) deletes its objects.
 */
describe('originals in an S3 bucket', () => {
  let deployment: Deployment;
  let receipt: Buffer;

  const keys = () => deployment.s3!.keys();
  const keyOf = (id: string) => `originals/${id}`;
  const pageKeyOf = (id: string) => `originals/${id}.pages/0.jpg`;

  async function signUp(): Promise<Visitor> {
    const visitor = new Visitor(deployment.baseUrl, uniqueIp());
    const email = `bucket-${Math.random().toString(36).slice(2)}@example.test`;
    await signUpUnconfirmed(visitor, deployment.services.databaseUrl, email, PASSWORD);
    await visitor.connect();
    return visitor;
  }

  async function processed(visitor: Visitor): Promise<string> {
    const { status, body } = await visitor.upload(receipt, 'receipt.jpg');
    expect(status).toBe(202);
    const id = body.id as string;
    expect((await visitor.waitForEnd(id)).event).toBe('upload:completed');
    return id;
  }

  beforeAll(async () => {
    receipt = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
    deployment = await Deployment.start('postgres', { RETENTION_SWEEP_MS: '1000' }, { storage: 's3' });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('stores an upload in the bucket, and a worker with no shared disk reads it from there', async () => {
    const visitor = await signUp();
    const id = await processed(visitor);
    expect(await keys()).toContain(keyOf(id));
    const { body } = await visitor.json<UploadView>(`/api/uploads/${id}`);
    expect(body).toMatchObject({ status: 'completed', receipt: { total: 10.4 } });
    // The page's picture is an object beside the original, and the review screen reads it from there.
    expect(await keys()).toContain(pageKeyOf(id));
    const receiptId = body.receipt!.id;
    expect(await visitor.json(`/api/receipts/${receiptId}`)).toMatchObject({ status: 200, body: { pages: 1 } });
    const picture = await visitor.request(`/api/receipts/${receiptId}/pages/0`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    expect((await picture.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // Nothing went to the api's disk.
    expect(existsSync(path.join(deployment.env.DATA_DIR!, 'uploads', id.slice(0, 2), id))).toBe(false);
    visitor.close();
  });

  it('deletes originals past retention from the bucket and keeps the others', async () => {
    const visitor = await signUp();
    const [old, recent] = [await processed(visitor), await processed(visitor)];
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    await db.query(`UPDATE uploads SET created_at = now() - interval '91 days' WHERE id = $1`, [old]);
    // The sweep runs every second here (RETENTION_SWEEP_MS).
    await until(keys, (k) => !k.includes(keyOf(old)), 'the retention sweep', { everyMs: 250 });
    expect(await keys()).not.toContain(pageKeyOf(old));
    // Objects go first, their rows are marked after.
    const marked = `SELECT original_deleted_at IS NOT NULL AS gone FROM uploads WHERE id = $1`;
    await until(() => db.query<{ gone: boolean }>(marked, [old]), ({ rows }) => rows[0]!.gone, 'the upload marked');
    await db.end();
    expect(await keys()).toEqual(expect.arrayContaining([keyOf(recent), pageKeyOf(recent)]));
    visitor.close();
  });

  it("deletes an original that landed after its upload was deleted, once the upload's job finds the row gone", async () => {
    // Another api process deleting the upload in the moment between this one's answer and its
    // store: the row goes, that process's delete finds no object, and the object lands after it.
    // Here the worker is stopped, so the job waits; the row goes as that delete leaves it.
    await deployment.killWorker();
    const visitor = await signUp();
    const upload = async (name: string) => (await visitor.upload(receipt, name)).body.id as string;
    const [cancelled, deleted] = [await upload('cancelled.jpg'), await upload('deleted.jpg')];
    await until(keys, (k) => k.includes(keyOf(cancelled)) && k.includes(keyOf(deleted)), 'both originals stored');
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    // An upload that only ended keeps its original (retention deletes it in time).
    await db.query(`UPDATE uploads SET status = 'cancelled' WHERE id = $1`, [cancelled]);
    await db.query('DELETE FROM uploads WHERE id = $1', [deleted]);
    await db.end();
    await deployment.restartWorker();
    await until(keys, (k) => !k.includes(keyOf(deleted)), "the deleted upload's original deleted");
    const seen = (id: string) => (lines: Array<Record<string, unknown>>) => lines.some((l) => l.uploadId === id && /^upload already ended/.test(String(l.msg)));
    await until(async () => logLines(deployment.output()), seen(cancelled), 'the cancelled upload seen by its job');
    expect(await keys()).toContain(keyOf(cancelled));
    visitor.close();
  });

  it('deletes the object with its upload, and every object of a deleted account', async () => {
    const visitor = await signUp();
    const [removed, kept1, kept2] = [await processed(visitor), await processed(visitor), await processed(visitor)];
    expect((await visitor.request(`/api/uploads/${removed}`, { method: 'DELETE' })).status).toBe(204);
    expect(await keys()).not.toContain(keyOf(removed));
    expect(await keys()).not.toContain(pageKeyOf(removed));
    const stranger = await signUp();
    const strangers = await processed(stranger);

    expect(await visitor.json('/api/user/account', { method: 'DELETE', ...json({ password: PASSWORD }) })).toMatchObject({ status: 200 });
    const left = await keys();
    expect(left).not.toContain(keyOf(kept1));
    expect(left).not.toContain(keyOf(kept2));
    expect(left.filter((k) => k.startsWith(keyOf(kept1)) || k.startsWith(keyOf(kept2)))).toEqual([]);
    expect(left).toEqual(expect.arrayContaining([keyOf(strangers), pageKeyOf(strangers)]));
    visitor.close();
    stranger.close();
  });
});

/**
 * An api stopped (SIGTERM: a deploy, a scale-down) while an accepted upload's original is still
 * on its way to a slow bucket: the upload was answered 202, so its file and its job must land
 * before the process goes.
 */
describe('an api stopped while an original is on its way to the bucket', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await Deployment.start('postgres', {}, { storage: 's3', s3PutDelayMs: 1500 });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('stores the original and queues its job before it exits, and a worker reads it', async () => {
    const visitor = new Visitor(deployment.baseUrl, uniqueIp());
    const { status, body } = await visitor.upload(await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' }), 'late.jpg');
    expect(status).toBe(202);
    const id = body.id as string;
    // The PUT waits 1.5 s at the bucket; the api is told to stop well before it lands.
    expect(await deployment.s3!.keys()).not.toContain(`originals/${id}`);
    expect(await deployment.stopApi('SIGTERM')).toBe(0);
    expect(await deployment.s3!.keys()).toContain(`originals/${id}`);
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    const statusNow = () => db.query<{ status: string }>('SELECT status FROM uploads WHERE id = $1', [id]);
    const ended = await until(statusNow, ({ rows }) => ['completed', 'failed'].includes(rows[0]!.status), 'the upload read', { timeoutMs: 60_000 });
    await db.end();
    expect(ended.rows[0]!.status).toBe('completed');
  });
});
