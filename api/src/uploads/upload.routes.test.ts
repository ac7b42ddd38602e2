import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, IDEMPOTENT_REPLAYED_HEADER } from '@receipts/common';
import { schema } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { withRouteApi, type Caller } from '../../../tests/support/route-api.js';
import { pngFile } from '../../../tests/support/upload-stack.js';

/** The upload form: a file (unless left out) and the fields beside it. */
function form(fields: Record<string, string>, file: { originalname: string; buffer: Buffer } | null = pngFile()): FormData {
  const body = new FormData();
  if (file) body.append('file', new Blob([new Uint8Array(file.buffer)]), file.originalname);
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

// The upload routes over HTTP on the real api, database and queue (no worker: uploads stay queued).
describe('upload routes', () => {
  const api = withRouteApi();
  let visitor: Caller;

  beforeAll(async () => {
    visitor = api.anonymous();
  }, 120_000);

  it('takes a file from anyone, and shows it to its owner only', async () => {
    const accepted = await visitor.post('/api/ocr', form({ currencyCode: 'eur', ifDuplicate: '' }));
    expect(accepted).toMatchObject({ status: 202, body: { id: expect.any(String), status: 'queued', lane: expect.any(String) } });
    const { id } = accepted.body;
    expect(await visitor.get(`/api/uploads/${id}`)).toMatchObject({ status: 200, body: { id, status: 'queued' } });
    expect((await visitor.get<Array<{ id: string }>>('/api/uploads')).body.map((u) => u.id)).toContain(id);
    expect(await api.anonymous().get(`/api/uploads/${id}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', message: 'Upload not found' } });
    expect((await api.anonymous().delete(`/api/uploads/${id}`)).status).toBe(404);
    expect((await visitor.get('/api/uploads/queue')).status).toBe(200);
    expect((await visitor.get('/api/uploads/processing-times')).status).toBe(200);
  });

  it('cancels and deletes the owner’s upload', async () => {
    const { id } = (await visitor.post('/api/ocr', form({}))).body;
    expect(await visitor.post(`/api/ocr/cancel/${id}`)).toMatchObject({ status: 200, body: { id, status: 'cancelled' } });
    expect(await visitor.post(`/api/ocr/cancel/${id}`)).toMatchObject({ status: 409, body: { error: 'NOT_CANCELLABLE' } });
    expect(await visitor.post(`/api/uploads/${id}/keep`)).toMatchObject({ status: 200, body: { id } });
    expect(await visitor.delete(`/api/uploads/${id}`)).toMatchObject({ status: 204, body: null });
    expect((await visitor.get(`/api/uploads/${id}`)).status).toBe(404);
  });

  it.each([
    ['no file', form({}, null), 'FILE_MISSING', 'No file was sent. Attach it in the form field "file".'],
    // The file is looked at before the fields beside it.
    ['no file and a wrong currency', form({ currencyCode: 'EURO' }, null), 'FILE_MISSING', 'No file was sent. Attach it in the form field "file".'],
    ['a currency that is no code', form({ currencyCode: 'EURO' }), 'BAD_REQUEST', 'currencyCode must be a three-letter ISO 4217 code'],
    ['a file in another field', (() => { const f = new FormData(); f.append('picture', new Blob([new Uint8Array(pngFile().buffer)]), 'r.png'); return f; })(), 'BAD_REQUEST', 'Send exactly one file, in the form field "file".'],
  ])('refuses an upload with %s', async (_what, body, error, message) => {
    expect(await api.anonymous().post('/api/ocr', body)).toEqual(expect.objectContaining({ status: 400, body: { error, message } }));
  });

  it('looks at the file’s name before the fields beside it', async () => {
    // An encoded control character, written by hand: no client library sends one.
    const boundary = 'route-test-boundary';
    const part = (disposition: string, content: Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n`), content, Buffer.from('\r\n')]);
    const res = await api.anonymous().visitor.request('/api/ocr', {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: Buffer.concat([part('name="currencyCode"', Buffer.from('EURO')), part(`name="file"; filename*=UTF-8''a%01b.png`, pngFile().buffer), Buffer.from(`--${boundary}--\r\n`)]),
    });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 400, body: { error: 'BAD_REQUEST', message: 'The file name contains characters that are not allowed.' } });
  });

  it.each([
    ['GET', '/api/uploads/42'],
    ['DELETE', '/api/uploads/42'],
    ['POST', '/api/uploads/42/keep'],
    ['POST', '/api/ocr/cancel/42'],
  ])('refuses %s %s for its id', async (method, url) => {
    expect(await visitor.send(method, url)).toEqual(expect.objectContaining({ status: 400, body: { error: 'BAD_REQUEST', message: 'Not a valid id.' } }));
  });

  describe('with an Idempotency-Key', () => {
    type File = { originalname: string; buffer: Buffer };
    /** POST /api/ocr of `file` under `key`; a form of its own each time, as a client retrying sends. */
    const upload = (caller: Caller, key: string, file: File, fields: Record<string, string> = {}, query = '') =>
      caller.send(`POST`, `/api/ocr${query}`, form(fields, file), { [IDEMPOTENCY_KEY_HEADER]: key });
    const replayed = (answer: { headers: Headers }) => answer.headers.get(IDEMPOTENT_REPLAYED_HEADER);
    const uploadIds = async (caller: Caller) => (await caller.get<Array<{ id: string }>>('/api/uploads')).body.map((u) => u.id);
    const used = async (caller: Caller) => (await caller.get('/api/user/quota')).body.used;

    it('answers a repeat with the first upload: one row, one unit, the same answer, marked as replayed', async () => {
      const caller = api.anonymous();
      const key = randomUUID();
      const file = pngFile();
      const first = await upload(caller, key, file, { currencyCode: 'EUR' });
      expect(first).toMatchObject({ status: 202, body: { id: expect.any(String), status: 'queued', lane: expect.any(String) } });
      expect(replayed(first)).toBeNull();
      const again = await upload(caller, key, file, { currencyCode: 'EUR' });
      expect({ status: again.status, body: again.body, replayed: replayed(again) }).toEqual({ status: 202, body: first.body, replayed: 'true' });
      expect(await uploadIds(caller)).toEqual([first.body.id]);
      expect(await used(caller)).toBe(1);
      // An upload that ended after its 202 is still the one the key made: ?wait=1 shows it as it is now.
      expect((await caller.post(`/api/ocr/cancel/${first.body.id}`)).status).toBe(200);
      const waited = await upload(caller, key, file, { currencyCode: 'EUR' }, '?wait=1');
      expect({ status: waited.status, id: waited.body.id, state: waited.body.status, replayed: replayed(waited) }).toEqual({ status: 200, id: first.body.id, state: 'cancelled', replayed: 'true' });
      expect(await uploadIds(caller)).toEqual([first.body.id]);
    });

    it('refuses the key with another file or other fields, and keeps the first upload', async () => {
      const caller = api.anonymous();
      const key = randomUUID();
      const file = pngFile();
      const first = await upload(caller, key, file);
      expect(first.status).toBe(202);
      const refused = { status: 422, body: { error: 'IDEMPOTENCY_KEY_REUSED', message: IDEMPOTENCY_MESSAGES.keyReused } };
      expect(await upload(caller, key, pngFile())).toMatchObject(refused);
      expect(await upload(caller, key, file, { currencyCode: 'EUR' })).toMatchObject(refused);
      expect(await upload(caller, key, { ...file, originalname: 'other.png' })).toMatchObject(refused);
      expect(await uploadIds(caller)).toEqual([first.body.id]);
      expect(await used(caller)).toBe(1);
    });

    it('keeps each owner’s keys apart: a visitor’s, another visitor’s and an account’s', async () => {
      const key = randomUUID();
      const file = pngFile();
      const callers = [api.anonymous(), api.anonymous(), await api.signedIn()];
      const answers = [];
      for (const caller of callers) answers.push(await upload(caller, key, file));
      expect(answers.map((a) => [a.status, replayed(a)])).toEqual(callers.map(() => [202, null]));
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(3);
      for (const [n, caller] of callers.entries()) expect(await uploadIds(caller)).toEqual([answers[n]!.body.id]);
    });

    it('makes one upload of requests sent at once under one key; the others wait their turn (409) or get it', async () => {
      const caller = api.anonymous();
      // The first request gives the visitor its session: the ones at once must share it.
      await caller.get('/api/uploads');
      const key = randomUUID();
      const file = pngFile();
      const answers = await Promise.all(Array.from({ length: 10 }, () => upload(caller, key, file)));
      const accepted = answers.filter((a) => a.status === 202);
      expect(answers.filter((a) => a.status !== 202)).toEqual(
        answers.filter((a) => a.status !== 202).map(() => expect.objectContaining({ status: 409, body: { error: 'CONFLICT', message: IDEMPOTENCY_MESSAGES.inFlight } })),
      );
      expect(new Set(accepted.map((a) => a.body.id)).size).toBe(1);
      expect(await uploadIds(caller)).toEqual([accepted[0]!.body.id]);
      expect(await used(caller)).toBe(1);
    });

    it('does not keep the key of a request that failed before anything was stored', async () => {
      const caller = api.anonymous();
      const key = randomUUID();
      expect(await upload(caller, key, { originalname: 'notes.txt', buffer: Buffer.from('not a receipt') })).toMatchObject({ status: 415 });
      const retried = await upload(caller, key, pngFile());
      expect({ status: retried.status, replayed: replayed(retried) }).toEqual({ status: 202, replayed: null });
    });

    it('forgets a key after 24 hours: the same request makes a new upload', async () => {
      const caller = api.anonymous();
      const key = randomUUID();
      const file = pngFile();
      const first = await upload(caller, key, file);
      const dayAndMore = new Date(Date.now() - 25 * 3600_000);
      await api.runtime.db.update(schema.idempotencyKeys).set({ createdAt: dayAndMore }).where(eq(schema.idempotencyKeys.key, key));
      const later = await upload(caller, key, file);
      expect({ status: later.status, replayed: replayed(later) }).toEqual({ status: 202, replayed: null });
      expect(later.body.id).not.toBe(first.body.id);
      expect((await uploadIds(caller)).toSorted()).toEqual([first.body.id, later.body.id].toSorted());
      expect(await used(caller)).toBe(2);
    });

    it.each([
      ['empty', ''],
      ['longer than 255 characters', 'k'.repeat(256)],
      ['not ASCII', 'cl\u00e9'],
    ])('refuses a key that is %s', async (_what, key) => {
      const caller = api.anonymous();
      expect(await upload(caller, key, pngFile())).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST', message: IDEMPOTENCY_MESSAGES.invalidKey } });
      expect(await uploadIds(caller)).toEqual([]);
    });
  });

  it('finds no upload by an id nobody has', async () => {
    expect(await visitor.get(`/api/uploads/${randomUUID()}`)).toMatchObject({ status: 404 });
  });
});
