import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsAccess, renderMetrics } from './metrics.js';
import type { Runtime } from './runtime.js';

/**
 * /healthz (process up), /readyz (database and Redis answer) and /metrics (Prometheus) for a
 * process without the api.
 */
export async function startHealthServer(runtime: Runtime, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.url === '/healthz') return reply(200, { status: 'ok' });
    if (req.url === '/readyz') {
      void runtime.ready().then((checks) => reply(checks.database && checks.redis ? 200 : 503, checks));
      return;
    }
    const access = req.url === '/metrics' ? metricsAccess(req.headers.authorization, runtime.config) : 'closed';
    if (access === 'unauthorized') return reply(401, { error: 'UNAUTHENTICATED', message: 'Send the metrics token as a bearer token.' });
    if (access === 'allowed') {
      void renderMetrics().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
        (err: unknown) => {
          runtime.log.error({ err }, 'metrics could not be rendered');
          reply(500, { error: 'INTERNAL', message: 'Metrics could not be rendered.' });
        },
      );
      return;
    }
    // Any other path, and /metrics while it is closed.
    reply(404, { error: 'NOT_FOUND', message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
  runtime.log.info({ port: (server.address() as AddressInfo).port }, 'health endpoints listening');
  return server;
}
