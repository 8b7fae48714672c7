import type { Socket } from 'bun';

/** Writes to a Bun socket without losing what it could not take at once: the rest waits for `drain`. */
class Outbox {
  private queue: Uint8Array[] = [];
  constructor(private readonly socket: () => Socket<unknown> | undefined) {}
  write(chunk: Uint8Array) {
    if (this.queue.length > 0) {
      this.queue.push(chunk);
      return;
    }
    const socket = this.socket();
    if (!socket) {
      this.queue.push(chunk);
      return;
    }
    const written = socket.write(chunk);
    if (written < chunk.length) this.queue.push(chunk.subarray(Math.max(0, written)));
  }
  flush() {
    const socket = this.socket();
    while (socket && this.queue.length > 0) {
      const chunk = this.queue[0] as Uint8Array;
      const written = socket.write(chunk);
      if (written < chunk.length) {
        this.queue[0] = chunk.subarray(Math.max(0, written));
        return;
      }
      this.queue.shift();
    }
  }
}

type Pair = { client: Socket<Pair>; upstream?: Socket<unknown>; toServer: Outbox; toClient: Outbox };

/**
 * A TCP proxy in front of the server that can drop the network on demand: `cut()` closes every open connection
 * (what a Wi-Fi drop does to an upload in flight) and refuses new ones for `downMs`. Counts the bytes it carried
 * from clients to the server, so a test or bench can tell a resumed upload from one that started over.
 */
export async function startCuttingProxy(target: { hostname: string; port: number }) {
  const open = new Set<Pair>();
  let downUntil = 0;
  let bytesUp = 0;

  const server = Bun.listen<Pair>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      async open(client) {
        const pair: Pair = {
          client,
          toServer: new Outbox(() => pair.upstream),
          toClient: new Outbox(() => client as Socket<unknown>),
        };
        client.data = pair;
        if (Date.now() < downUntil) {
          client.terminate();
          return;
        }
        open.add(pair);
        try {
          pair.upstream = await Bun.connect({
            hostname: target.hostname,
            port: target.port,
            socket: {
              data(_upstream, chunk) {
                pair.toClient.write(new Uint8Array(chunk));
              },
              drain() {
                pair.toServer.flush();
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
          pair.toServer.flush();
        } catch {
          client.end();
        }
      },
      data(client, chunk) {
        bytesUp += chunk.length;
        client.data.toServer.write(new Uint8Array(chunk));
      },
      drain(client) {
        client.data.toClient.flush();
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
