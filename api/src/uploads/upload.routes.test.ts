import { randomUUID } from 'node:crypto';
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

  it('finds no upload by an id nobody has', async () => {
    expect(await visitor.get(`/api/uploads/${randomUUID()}`)).toMatchObject({ status: 404 });
  });
});
