import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deployment } from './support/deployment.js';
import { freePort } from './support/free-port.js';
import { startServiceProcess } from './support/service-process.js';
import { Visitor, uniqueIp } from './support/visitor.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';
import { logLines } from './support/process-output.js';
import { eventually } from './support/until.js';

const METRICS_TOKEN = 'ops-test-metrics-token-0123456789';

/** The value of one sample of a Prometheus text exposition, whatever order its labels are in. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const own = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => own[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('operations: metrics and request ids (api and worker as separate processes)', () => {
  let deployment: Deployment;
  let workerMetricsUrl: string;
  let uploadId: string;
  const requestId = 'ops-test-request-42';

  beforeAll(async () => {
    deployment = await Deployment.start('postgres', { METRICS_TOKEN, WORKER_CONCURRENCY: '1' });
    const port = /\/metrics on port (\d+)/.exec(deployment.output())![1];
    workerMetricsUrl = `http://127.0.0.1:${port}/metrics`;
    const visitor = new Visitor(deployment.baseUrl, uniqueIp());
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' }))]), 'receipt.jpg');
    const res = await visitor.request('/api/ocr?wait=1', { method: 'POST', body: form, headers: { 'X-Request-Id': requestId } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const upload = (await res.json()) as { id: string; status: string };
    expect(upload.status).toBe('completed');
    uploadId = upload.id;
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('carries the request id from the api into the worker’s log lines of that upload', async () => {
    await eventually(() => {
      const lines = logLines(deployment.output());
      const api = lines.filter((l) => l.role === 'api' && l.requestId === requestId);
      expect(api.find((l) => l.msg === 'upload queued')).toMatchObject({ uploadId });
      expect(api.find((l) => l.msg === 'request')).toMatchObject({ method: 'POST', url: '/api/ocr?wait=1', status: 200 });
      const worker = lines.filter((l) => l.role === 'worker' && l.uploadId === uploadId);
      expect(worker.find((l) => l.msg === 'receipt stored')).toMatchObject({ requestId, jobId: uploadId });
    });
  });

  it('replaces a request id that is not sane with a fresh one', async () => {
    const res = await fetch(`${deployment.baseUrl}/api/uploads`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    expect((await fetch(`${deployment.baseUrl}/metrics`)).status).toBe(401);
    expect((await fetch(workerMetricsUrl, { headers: { Authorization: 'Bearer wrong-token-wrong-token-00' } })).status).toBe(401);
  });

  it('api /metrics: queue depth per lane, upload sizes and HTTP latency per route', async () => {
    const res = await fetch(`${deployment.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(sample(text, 'receipts_queue_depth', { lane: 'express', role: 'api' })).toBe(0);
    expect(sample(text, 'receipts_queue_depth', { lane: 'standard', role: 'api' })).toBe(0);
    expect(sample(text, 'receipts_upload_size_bytes_count', { mime_type: 'image/jpeg', role: 'api' })).toBe(1);
    expect(sample(text, 'receipts_upload_size_bytes_sum', { mime_type: 'image/jpeg', role: 'api' })).toBeGreaterThan(10_000);
    expect(sample(text, 'receipts_http_request_duration_seconds_count', { method: 'POST', route: '/api/ocr', status: '200' })).toBe(1);
    expect(sample(text, 'receipts_http_request_duration_seconds_count', { method: 'GET', route: '/api/uploads', status: '200' })).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes', { role: 'api' })).toBeGreaterThan(0);
  });

  it('worker /metrics: jobs completed per lane, job duration and OCR time histograms', async () => {
    const res = await fetch(workerMetricsUrl, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sample(text, 'receipts_jobs_completed_total', { lane: 'standard', role: 'worker' })).toBe(1);
    expect(sample(text, 'receipts_jobs_failed_total', { lane: 'standard' })).toBeUndefined();
    expect(sample(text, 'receipts_job_duration_seconds_count', { lane: 'standard', outcome: 'completed' })).toBe(1);
    expect(sample(text, 'receipts_ocr_duration_seconds_count', { engine: 'local' })).toBe(1);
    expect(sample(text, 'receipts_ocr_duration_seconds_sum', { engine: 'local' })).toBeGreaterThan(0);
    expect(sample(text, 'receipts_jobs_active', { role: 'worker' })).toBe(0);
  });

  it('SIGTERM on an api: answers the requests in flight, closes live connections, exits 0', async () => {
    // With no worker, a ?wait=1 upload stays in flight until the api lets it go.
    await deployment.killWorker('SIGTERM');
    const api = await startServiceProcess('api', { ...deployment.env, PORT: String(await freePort()), ROLES: 'api' });
    const baseUrl = `http://127.0.0.1:${api.port}`;
    const visitor = new Visitor(baseUrl, uniqueIp());
    await visitor.connect();
    const disconnected = new Promise<string>((resolve) => visitor.socket!.once('disconnect', resolve));
    const inFlight = visitor.upload(await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' }), 'drain.jpg', '?wait=1');
    await eventually(() => expect(logLines(api.output()).some((l) => l.msg === 'upload queued')).toBe(true));
    const exited = api.stop('SIGTERM');
    const answered = await inFlight;
    expect(answered).toMatchObject({ status: 200, body: { status: 'queued', filename: 'drain.jpg' } });
    expect(await disconnected).toBe('transport close');
    expect(await exited).toBe(0);
    await expect(fetch(`${baseUrl}/healthz`)).rejects.toThrow();
    visitor.close();
    await deployment.restartWorker();
  });
});
