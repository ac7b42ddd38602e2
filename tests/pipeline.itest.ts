import { PIPELINE_STEPS, type ReceiptView, type UploadView } from '@receipts/common';
import { JOBS_AHEAD } from '@receipts/worker';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Deployment, type DeploymentMode } from './support/deployment.js';
import { until } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';

/** A made-up receipt the test prints (total 10.40), as a JPEG. */
const RECEIPT = 'receipt.jpg';

describe.each<DeploymentMode>(['pglite', 'postgres'])('pipeline spine on %s', (mode) => {
  let deployment: Deployment;
  let visitor: Visitor;
  let receipt: Buffer;
  /** A receipt of 90 lines: its reading outlasts the 300 ms drain however warm the engine is. */
  let longReceipt: Buffer;

  beforeAll(async () => {
    receipt = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
    const items = Array.from({ length: 90 }, (_, i) => `ITEM NUMBER ${String(i + 1).padStart(2, '0')}  ${(1 + (i % 9) / 10).toFixed(2)}`);
    longReceipt = await printedReceipt([...PRINTED_RECEIPT_LINES.slice(0, 2), ...items, 'TOTAL 130.50'], { format: 'jpeg' });
    deployment = await Deployment.start(mode);
  });

  // A visitor of its own per test: anonymous visitors may upload 5 receipts a day.
  beforeEach(async () => {
    visitor = new Visitor(deployment.baseUrl, uniqueIp());
    await visitor.connect();
  });

  afterEach(() => visitor?.close());

  afterAll(async () => {
    await deployment?.stop();
  });

  it('moves an upload through every step, live, to a stored receipt', async () => {
    const { status, body } = await visitor.upload(receipt, RECEIPT);
    expect(status).toBe(202);
    expect(body).toMatchObject({ status: 'queued', lane: 'standard' });
    const id = body.id as string;

    const end = await visitor.waitForEnd(id);
    expect(end.event).toBe('upload:completed');
    const progress = visitor.eventsFor(id).filter((e) => e.event === 'upload:progress').map((e) => e.payload.progress);
    expect(progress).toEqual(PIPELINE_STEPS.map((s) => s.progress));
    const fromSocket = end.payload.receipt as UploadView['receipt'];
    expect(fromSocket?.total).toBe(10.4);

    const { body: stored } = await visitor.json<UploadView>(`/api/uploads/${id}`);
    expect(stored).toMatchObject({ id, filename: RECEIPT, status: 'completed', progress: 100, mimeType: 'image/jpeg' });
    expect(stored.receipt).toEqual(fromSocket);

    const { body: list } = await visitor.json<UploadView[]>('/api/uploads');
    expect(list[0]!.id).toBe(id);
    // A second tab (a reload) sees the same state.
    const second = new Visitor(deployment.baseUrl, visitor.clientIp);
    second.cookie = visitor.cookie;
    await second.connect();
    expect((await second.sync()).find((u) => u.id === id)?.status).toBe('completed');
    second.close();
  });

  it('stores the tax per rate a receipt prints, and drops it once a correction changes the tax', async () => {
    // A made-up German receipt with its VAT table: net, tax and gross at 19 % and 7 %.
    const german = await printedReceipt(
      ['BAECKEREI MUELLER GMBH', 'HAUPTSTR. 5, 50667 KOELN', 'DATUM 12.03.2026 08:15', 'BROT 3,50 B', 'KAFFEE 2,38 A', 'SUMME EUR 5,88', 'MWST NETTO STEUER BRUTTO', 'A 19% 2,00 0,38 2,38', 'B 7% 3,27 0,23 3,50'],
      { format: 'jpeg' },
    );
    const { body } = await visitor.upload(german, 'bon.jpg', '?wait=1');
    const stored = (body as unknown as UploadView).receipt!;
    expect(stored).toMatchObject({ currency: 'EUR', total: 5.88, tax: 0.61 });
    const rates = [
      { rate: 19, net: 2, tax: 0.38, gross: 2.38 },
      { rate: 7, net: 3.27, tax: 0.23, gross: 3.5 },
    ];
    expect(stored.taxRates).toEqual(rates);
    const path = `/api/receipts/${stored.id}`;
    expect((await visitor.json<ReceiptView>(path)).body.taxRates).toEqual(rates);
    // A correction elsewhere keeps the rates; a tax they no longer make drops them.
    const dated = await visitor.json<ReceiptView>(path, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ date: '2026-03-13' }) });
    expect(dated.body.taxRates).toEqual(rates);
    const taxed = await visitor.json<ReceiptView>(path, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ tax: 0.7 }) });
    expect(taxed.status).toBe(200);
    expect(taxed.body.tax).toBe(0.7);
    expect(taxed.body.taxRates).toBeUndefined();
  });

  it('answers ?wait=1 with the final upload, the same receipt as the asynchronous path', async () => {
    const queued = await visitor.upload(receipt, RECEIPT);
    await visitor.waitForEnd(queued.body.id as string);
    const { status, body } = await visitor.upload(receipt, RECEIPT, '?wait=1');
    expect(status).toBe(200);
    const waited = body as unknown as UploadView;
    expect(waited.status).toBe('completed');
    const { body: again } = await visitor.json<UploadView>(`/api/uploads/${waited.id}`);
    expect(again).toEqual(waited);
    const first = (await visitor.json<UploadView[]>('/api/uploads')).body.find((u) => u.id !== waited.id && u.receipt);
    const { id: _a, ...a } = waited.receipt!;
    const { id: _b, ...b } = first!.receipt!;
    expect(a).toEqual(b);
  });

  it('cancels a waiting upload and an active one', async () => {
    // The worker holds its two OCR slots' jobs and one ahead (JOBS_AHEAD): the first three start, the fourth waits.
    const places = Number(deployment.env.WORKER_CONCURRENCY) + JOBS_AHEAD;
    const ids: string[] = [];
    for (let i = 0; i <= places; i++) ids.push((await visitor.upload(receipt, `cancel-${i}.jpg`)).body.id as string);
    const active = ids[0]!;
    const waiting = ids[places]!;

    const waitingCancel = await visitor.json<UploadView>(`/api/ocr/cancel/${waiting}`, { method: 'POST' });
    expect(waitingCancel.status).toBe(200);
    expect(waitingCancel.body.status).toBe('cancelled');

    await visitor.waitFor(() => visitor.eventsFor(active).some((e) => e.event === 'upload:progress'), 60_000, 'active job');
    const activeCancel = await visitor.json<UploadView>(`/api/ocr/cancel/${active}`, { method: 'POST' });
    expect(activeCancel.body.status).toBe('cancelled');

    for (const id of [active, waiting]) expect((await visitor.waitForEnd(id)).event).toBe('upload:cancelled');
    for (const id of ids.slice(1, places)) await visitor.waitForEnd(id);
    // The worker stopped work on it: no receipt, still cancelled, no progress after the cancel.
    const { body: after } = await visitor.json<UploadView>(`/api/uploads/${active}`);
    expect(after.status).toBe('cancelled');
    expect(after.receipt).toBeUndefined();
    const events = visitor.eventsFor(active).map((e) => e.event);
    expect(events.slice(events.indexOf('upload:cancelled') + 1)).toEqual([]);
    expect(visitor.eventsFor(waiting).some((e) => e.event === 'upload:progress')).toBe(false);

    const again = await visitor.json<{ error: string }>(`/api/ocr/cancel/${active}`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('NOT_CANCELLABLE');
  });

  it('turns bad input into clear errors and keeps serving', async () => {
    const empty = await visitor.upload(Buffer.alloc(0), 'empty.jpg');
    expect(empty).toMatchObject({ status: 400, body: { error: 'FILE_EMPTY', message: 'The file is empty.' } });

    const huge = Buffer.alloc(11 * 1024 * 1024, 0);
    receipt.copy(huge);
    expect(await visitor.upload(huge, 'huge.jpg')).toMatchObject({ status: 413, body: { error: 'FILE_TOO_LARGE' } });

    const text = await visitor.upload(Buffer.from('just some notes, not a picture'), 'notes.jpg');
    expect(text).toMatchObject({ status: 415, body: { error: 'UNSUPPORTED_FILE_TYPE' } });

    expect(await visitor.upload(receipt, RECEIPT, '', 'document')).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    const none = await visitor.json<{ error: string }>('/api/ocr', { method: 'POST', body: new FormData() });
    expect(none).toMatchObject({ status: 400, body: { error: 'FILE_MISSING' } });

    const truncated = await visitor.upload(receipt.subarray(0, 2000), 'truncated.jpg');
    expect(truncated.status).toBe(202);
    const failed = await visitor.waitForEnd(truncated.body.id as string);
    expect(failed.event).toBe('upload:failed');
    expect(String(failed.payload.error)).toMatch(/\w+/);
    const { body: failedView } = await visitor.json<UploadView>(`/api/uploads/${truncated.body.id}`);
    expect(failedView).toMatchObject({ status: 'failed', error: failed.payload.error });

    const good = await visitor.upload(receipt, RECEIPT);
    expect((await visitor.waitForEnd(good.body.id as string)).event).toBe('upload:completed');
  });

  it.runIf(mode === 'postgres')('shows the same live progress through a second api process', async () => {
    const otherApi = new Visitor(await deployment.startExtraApi(), visitor.clientIp);
    otherApi.cookie = visitor.cookie;
    await otherApi.connect();
    const { body } = await visitor.upload(receipt, 'two-apis.jpg');
    const end = await otherApi.waitForEnd(body.id as string);
    expect(end.event).toBe('upload:completed');
    const steps = otherApi.eventsFor(body.id as string).filter((e) => e.event === 'upload:progress');
    expect(steps.map((e) => e.payload.progress)).toEqual(PIPELINE_STEPS.map((s) => s.progress));
    otherApi.close();
  });

  it.runIf(mode === 'postgres')('hands an active job to another worker when its worker is told to stop', async () => {
    const { body } = await visitor.upload(longReceipt, 'drained.jpg');
    const id = body.id as string;
    await visitor.waitFor(() => visitor.eventsFor(id).some((e) => e.event === 'upload:progress'), 60_000, 'job start');
    // Drain gives active jobs SHUTDOWN_TIMEOUT_MS (300 ms here), then hands them back to the queue.
    await deployment.killWorker('SIGTERM');
    const { body: handedBack } = await visitor.json<UploadView>(`/api/uploads/${id}`);
    expect(handedBack.status).toBe('queued');
    await deployment.startWorker();
    const end = await visitor.waitForEnd(id);
    expect(end.event).toBe('upload:completed');
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    const { rows } = await db.query('SELECT attempts, (SELECT count(*)::int FROM receipts WHERE upload_id = $1) AS n FROM uploads WHERE id = $1', [id]);
    await db.end();
    expect(rows[0]).toEqual({ attempts: 2, n: 1 });
  });

  it('completes an upload exactly once when its worker is killed mid-job', async () => {
    const { status, body } = await visitor.upload(receipt, 'killed.jpg');
    expect(status).toBe(202);
    const id = body.id as string;
    // Mid-job: the first step is on the socket, or the upload reads as processing.
    const upload = () => visitor.json<UploadView>(`/api/uploads/${id}`).then((r) => r.body);
    const started = (now: UploadView) => now.status === 'processing' || visitor.eventsFor(id).some((e) => e.event === 'upload:progress');
    await until(upload, started, 'job start', { timeoutMs: 60_000 }).catch(async (err: Error) => {
      // Say where the upload is, and what the processes printed, when its first step never showed.
      throw new Error(`${err.message}: ${JSON.stringify(await upload())}\n${deployment.output().slice(-4000)}`);
    });
    await deployment.killWorker();
    await deployment.restartWorker();
    if (mode === 'pglite') {
      // The whole process restarted on the same port and data: the session survives, the socket reconnects.
      visitor.close();
      await visitor.connect();
    }
    const deadline = Date.now() + 120_000;
    let view: UploadView;
    do {
      await new Promise((r) => setTimeout(r, 500));
      view = (await visitor.json<UploadView>(`/api/uploads/${id}`)).body;
    } while (view.status !== 'completed' && view.status !== 'failed' && Date.now() < deadline);
    if (mode === 'postgres') {
      expect(view.status).toBe('completed');
      const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
      await db.connect();
      const { rows } = await db.query('SELECT count(*)::int AS n FROM receipts WHERE upload_id = $1', [id]);
      const { rows: attempts } = await db.query('SELECT attempts FROM uploads WHERE id = $1', [id]);
      await db.end();
      expect(rows[0].n).toBe(1);
      expect(attempts[0].attempts).toBe(2);
    } else {
      expect(view.status).toBe('completed');
      expect(view.receipt?.total).toBe(10.4);
    }
  });
});
