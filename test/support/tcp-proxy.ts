import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 that a test can cut and restore, to make a real database
 * unreachable without stopping it for everyone else.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnection(target);
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        if (address && typeof address === 'object') port = address.port;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    /** Refuses new connections and kills open ones. */
    async cut() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
    restore: listen,
    close() {
      return this.cut();
    },
  };
}
