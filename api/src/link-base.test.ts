import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { linkBase } from './link-base.js';

const DEFAULT = 'http://localhost:3000';

describe('linkBase: where links in mails point', () => {
  let server: http.Server | null = null;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** What a request with `headers` gets, from an api with this trust proxy setting and configuration. */
  async function linksFor(headers: Record<string, string>, options: { trustProxy?: string | false; PUBLIC_URL?: string; NODE_ENV?: 'development' | 'production' } = {}) {
    const app = express();
    app.set('trust proxy', options.trustProxy ?? false);
    const config = { PUBLIC_URL: options.PUBLIC_URL, publicUrl: options.PUBLIC_URL ?? DEFAULT, NODE_ENV: options.NODE_ENV ?? 'development' };
    app.get('/', (req, res) => void res.send(linkBase(req, config)));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    return new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/', headers }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve(body));
        })
        .on('error', reject);
    });
  }

  it('follows the host the page was opened at, not localhost', async () => {
    await expect(linksFor({ Host: '192.168.1.20:3000' })).resolves.toBe('http://192.168.1.20:3000');
    await expect(linksFor({ Host: 'Receipts.Lan' })).resolves.toBe('http://receipts.lan');
  });

  it('takes X-Forwarded-Host and -Proto only from a trusted proxy', async () => {
    const forwarded = { Host: '127.0.0.1:3000', 'X-Forwarded-Host': 'receipts.example', 'X-Forwarded-Proto': 'https' };
    await expect(linksFor(forwarded)).resolves.toBe('http://127.0.0.1:3000');
    await expect(linksFor(forwarded, { trustProxy: 'loopback' })).resolves.toBe('https://receipts.example');
  });

  it('keeps PUBLIC_URL when it is set, whatever the request says', async () => {
    await expect(linksFor({ Host: 'evil.example' }, { PUBLIC_URL: 'https://receipts.example' })).resolves.toBe('https://receipts.example');
  });

  it('never takes a host from the request in production, where a stranger would choose it', async () => {
    await expect(linksFor({ Host: 'evil.example' }, { NODE_ENV: 'production' })).resolves.toBe(DEFAULT);
  });

  it('takes the default for a host that is more than a host', async () => {
    await expect(linksFor({ Host: 'evil.example/path' })).resolves.toBe(DEFAULT);
    await expect(linksFor({ Host: 'user@evil.example' })).resolves.toBe(DEFAULT);
  });
});
