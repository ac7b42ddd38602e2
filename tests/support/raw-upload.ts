import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Visitor } from './visitor.js';

/**
 * POST /api/ocr as a browser sends it, the multipart body built once and written through
 * node:http. For benchmarks whose client shares the machine with the service: fetch with a
 * FormData spends more CPU per upload (web streams, blob reads) than the api does accepting it.
 */
export async function rawUpload(visitor: Visitor, bytes: Buffer, filename: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const boundary = `----bench${randomBytes(12).toString('hex')}`;
  // Written in three parts: joining them copied every file once more on the benchmark's side.
  const body = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  const url = new URL('/api/ocr', visitor.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { ...visitor.headers(), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.reduce((n, part) => n + part.length, 0) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          visitor.remember(res.headers['set-cookie']);
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(body[0]);
    req.write(body[1]);
    req.end(body[2]);
  });
}
