import type { Socket } from 'bun';

/**
 * A TCP proxy in front of the server that can drop the network on demand: `cut()` closes every open connection
 * (what a Wi-Fi drop does to an upload in flight) and refuses new ones for `downMs`. Counts the bytes it carried
 * from clients to the server, so a test or bench can tell a resumed upload from one that started over.
 */
export async function startCuttingProxy(target: { hostname: string; port: number }) {
  type Pair = { client: Socket<Pair>; upstream?: Socket<unknown>; pending: Uint8Array[] };
  const open = new Set<Pair>();
  let downUntil = 0;
  let bytesUp = 0;

  const server = Bun.listen<Pair>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      async open(client) {
        const pair: Pair = { client, pending: [] };
        client.data = pair;
        if (Date.now() < downUntil) {
          client.end();
          return;
        }
        open.add(pair);
        try {
          pair.upstream = await Bun.connect({
            hostname: target.hostname,
            port: target.port,
            socket: {
              data(_upstream, chunk) {
                pair.client.write(chunk);
              },
              close() {
                pair.client.end();
                open.delete(pair);
              },
              error() {
                pair.client.end();
              },
            },
          });
          for (const chunk of pair.pending) pair.upstream.write(chunk);
          pair.pending = [];
        } catch {
          client.end();
        }
      },
      data(client, chunk) {
        bytesUp += chunk.length;
        const pair = client.data;
        if (pair.upstream) pair.upstream.write(chunk);
        else pair.pending.push(new Uint8Array(chunk));
      },
      close(client) {
        client.data?.upstream?.end();
        open.delete(client.data);
      },
      error(client) {
        client.data?.upstream?.end();
      },
    },
  });

  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    port: server.port,
    /** Bytes carried from clients to the server so far. */
    bytesUp: () => bytesUp,
    /** Drops every open connection at once and refuses new ones for `downMs`. */
    cut(downMs = 0) {
      downUntil = Date.now() + downMs;
      for (const pair of open) {
        pair.client.terminate();
        pair.upstream?.terminate();
      }
      open.clear();
    },
    stop() {
      this.cut();
      server.stop(true);
    },
  };
}
