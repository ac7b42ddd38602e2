import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import multer from 'multer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashingMemoryStorage } from './hashing-memory.storage.js';

// multer with the storage over real HTTP: the file arrives in many chunks, as a large upload does.
describe('hashingMemoryStorage', () => {
  let server: http.Server;
  let baseUrl: string;

  beforeAll(async () => {
    const app = express();
    const receive = multer({ storage: hashingMemoryStorage, limits: { fileSize: 1024 * 1024 } }).single('file');
    app.post('/upload', (req, res) => {
      receive(req, res, (err: unknown) => {
        if (err) return res.status(413).json({ error: (err as { code?: string }).code });
        const file = req.file as Express.Multer.File & { sha256: string };
        res.json({ size: file.size, sha256: file.sha256, bufferSha256: createHash('sha256').update(file.buffer).digest('hex') });
      });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const send = async (bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'receipt.jpg');
    const res = await fetch(`${baseUrl}/upload`, { method: 'POST', body: form });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('keeps the whole file and its SHA-256, the same as hashing the bytes at once', async () => {
    // Larger than a socket read: the hash is made of many chunks.
    const bytes = randomBytes(700 * 1024);
    const { status, body } = await send(bytes);
    expect(status).toBe(200);
    const expected = createHash('sha256').update(bytes).digest('hex');
    expect(body).toEqual({ size: bytes.length, sha256: expected, bufferSha256: expected });
  });

  it('gives an empty file the hash of nothing', async () => {
    const { body } = await send(Buffer.alloc(0));
    expect(body).toMatchObject({ size: 0, sha256: createHash('sha256').digest('hex') });
  });

  it('lets multer refuse a file over its limit', async () => {
    const { status, body } = await send(randomBytes(1024 * 1024 + 1));
    expect(status).toBe(413);
    expect(body).toEqual({ error: 'LIMIT_FILE_SIZE' });
  });
});
