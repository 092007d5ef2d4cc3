/**
 * A small HTTP server for the processes that serve no REST (core, workers) in a
 * distributed deployment: `GET /metrics` (Prometheus text, this process's registry) and
 * `GET /livez`. Started only when `SLIDEWRIGHT_METRICS_PORT` is set.
 */
import { createServer, type Server } from 'node:http';
import { registry } from './metrics.js';

/**
 * Listens on `host:port` (port 0 picks a free one).
 * @returns the bound port and a function that stops the server
 * @throws Error when the port cannot be bound
 */
export async function startMetricsServer(host: string, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        },
        (err: Error) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`metrics unavailable: ${err.message}\n`);
        },
      );
      return;
    }
    if (req.method === 'GET' && path === '/livez') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"detail":"not found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
