import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Runtime } from './runtime.js';

/** /healthz (process up) and /readyz (database and Redis answer) for a process without the api. */
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
    reply(404, { error: 'NOT_FOUND', message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
  runtime.log.info({ port: (server.address() as AddressInfo).port }, 'health endpoints listening');
  return server;
}
