import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER } from '@receipts/common';
import { verifyWebhookSignature, type SignatureCheck } from '@receipts/common/webhook-signature';

export interface ReceivedDelivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  body: string;
  /** What verifyWebhookSignature said of it under the path's secret. */
  check: SignatureCheck;
  /** The status the receiver answered. */
  status: number;
}

/**
 * A webhook receiver as a user would write one, on 127.0.0.1: every request is checked with
 * verifyWebhookSignature under the secret its path was given (`expect`) and answered 400 when it
 * fails; a good one gets the path's answer: 200, 500 (`/fail…`), or 302 to a private address
 * (`/redirect…`). Its clock can be moved (`skewSeconds`), to replay a delivery later.
 */
export async function startWebhookReceiver() {
  const received: ReceivedDelivery[] = [];
  const secrets = new Map<string, string>();
  let skewSeconds = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const check = verifyWebhookSignature(body, req.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string | undefined, secrets.get(path) ?? '', {
        toleranceSeconds: 300,
        now: new Date(Date.now() + skewSeconds * 1000),
      });
      const status = !check.ok ? 400 : path.startsWith('/fail') ? 500 : path.startsWith('/redirect') ? 302 : 200;
      received.push({ path, headers: req.headers, body, check, status });
      res.writeHead(status, status === 302 ? { Location: 'http://10.0.0.1/internal' } : {}).end(check.ok ? 'ok' : check.reason);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    received,
    url: (path: string) => `${base}${path}`,
    /** The secret deliveries to `path` are checked with. */
    expect(path: string, secret: string) {
      secrets.set(path, secret);
    },
    set skewSeconds(seconds: number) {
      skewSeconds = seconds;
    },
    /** Sends a request to the receiver as if it came from the service (a replay, an altered copy): the status it answers. */
    async post(path: string, body: string, headers: http.IncomingHttpHeaders): Promise<number> {
      const res = await fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: String(headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]) } });
      await res.text();
      return res.status;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
