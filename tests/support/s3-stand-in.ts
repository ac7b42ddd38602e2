import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver checks signatures against its one built-in account. */
const ACCESS_KEY = 'S3RVER';

export interface S3StandIn {
  bucket: string;
  /** The settings that point a process at this bucket (STORAGE=s3 and the S3_* variables). */
  env: Record<string, string>;
  /** Keys in the bucket now. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export interface S3StandInOptions {
  /** Each PUT of an object waits this long before it reaches the bucket (a slow network or store). */
  putDelayMs?: number;
}

/**
 * An S3-compatible server (s3rver) on 127.0.0.1 with one empty bucket of this test's own: the
 * real AWS SDK talks to it over HTTP as it would to AWS S3 or MinIO.
 */
export async function startS3StandIn(options: S3StandInOptions = {}): Promise<S3StandIn> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3-stand-in-'));
  const bucket = `receipts-${randomUUID().slice(0, 8)}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port: serverPort } = await server.run();
  const slow = options.putDelayMs ? await delayingProxy(serverPort, options.putDelayMs) : null;
  const port = slow?.port ?? serverPort;
  const env = {
    STORAGE: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: ACCESS_KEY,
  };
  const client = new S3Client({
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  });
  return {
    bucket,
    env,
    async keys() {
      const { Contents } = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (Contents ?? []).map((o) => o.Key!).sort();
    },
    async close() {
      client.destroy();
      await slow?.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** An HTTP proxy on 127.0.0.1 to the bucket's server that holds each PUT for `delayMs` before passing it on. */
async function delayingProxy(target: number, delayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const proxy = http.createServer((req, res) => {
    const forward = () => {
      const upstream = http.request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (req.method === 'PUT') setTimeout(forward, delayMs);
    else forward();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
