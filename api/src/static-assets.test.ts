import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticAssets } from './static-assets.js';

const SCRIPT = Buffer.from(`console.log(${JSON.stringify('receipts '.repeat(500))});\n`);

/** A raw GET: the body as sent (no client decompressing it) and the headers. */
function get(base: string, url: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${url}`, { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

describe('the web app’s built files', () => {
  let dir: string;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'static-'));
    await mkdir(path.join(dir, 'assets'));
    const script = path.join(dir, 'assets', 'index-Ab12Cd.js');
    await writeFile(script, SCRIPT);
    await writeFile(`${script}.br`, brotliCompressSync(SCRIPT));
    await writeFile(`${script}.gz`, gzipSync(SCRIPT));
    await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *\n');
    const app = express();
    app.use(staticAssets(dir));
    app.use((_req, res) => res.status(404).send('app route'));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the Brotli copy to a browser that takes it, as the script it is, cached for a year', async () => {
    const res = await get(base, '/assets/index-Ab12Cd.js', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(res.body)).toEqual(SCRIPT);
  });

  it('sends gzip where Brotli is not taken, and the file itself where nothing is', async () => {
    const gz = await get(base, '/assets/index-Ab12Cd.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body)).toEqual(SCRIPT);
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get(base, '/assets/index-Ab12Cd.js', accept);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.body).toEqual(SCRIPT);
    }
  });

  it('serves a file without copies as it is, for an hour, and nothing outside the build', async () => {
    const robots = await get(base, '/robots.txt', 'br');
    expect(robots).toMatchObject({ status: 200, body: Buffer.from('User-agent: *\n') });
    expect(robots.headers['content-encoding']).toBeUndefined();
    expect(robots.headers['cache-control']).toBe('public, max-age=3600');
    for (const url of ['/..%2f..%2fetc%2fpasswd', '/assets/..%2f..%2f..%2fetc%2fpasswd', '/%E0%A4%A', '/assets/missing.js']) {
      expect((await get(base, url, 'br')).body.toString()).toBe('app route');
    }
  });
});
