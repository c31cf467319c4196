// The receiving POS for bench/webhooks.ts, in its own process so that it does not share the
// worker's event loop. Answers 204 at once and reports each arrival (webhook-id, wall-clock ms)
// to the parent over IPC, in small batches.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const now = () => performance.timeOrigin + performance.now();
let pending: Array<[string, number]> = [];

const server = createServer((req, res) => {
  const at = now();
  req.resume();
  req.on('end', () => {
    pending.push([String(req.headers['webhook-id'] ?? ''), at]);
    res.writeHead(204);
    res.end();
  });
});
server.keepAliveTimeout = 10_000;

setInterval(() => {
  if (pending.length === 0) return;
  process.send?.({ arrivals: pending });
  pending = [];
}, 20).unref();

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('disconnect', () => process.exit(0));
