/**
 * The bus arriving late on one instance, as on a busy machine or while Redis does not reach it: a
 * TCP relay between that instance and Redis which, while `hold()` lasts, keeps back what Redis sends
 * to the instance's pub/sub connection (the other instances' messages), and hands it over in order
 * at `release()`. Everything else goes through at once: the instance's own messages (delivered to
 * itself without Redis), its rate limits and lockouts, its publishing to the others.
 */
import net from 'node:net';

export interface LateBus {
  /** `REDIS_URL` for the late instance: the relay, on the same database as `redisUrl`. */
  url: string;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

// A connection that sends SUBSCRIBE is the bus's listener (`instance/bus.ts`): what the relay holds.
const SUBSCRIBES = /\*\d+\r\n\$9\r\nsubscribe\r\n/i;

interface Relay {
  client: net.Socket;
  redis: net.Socket;
  listening: boolean;
  held: Buffer[];
}

export async function lateBus(redisUrl: string): Promise<LateBus> {
  const target = new URL(redisUrl);
  const relays = new Set<Relay>();
  let holding = false;

  const server = net.createServer((client) => {
    const redis = net.connect(Number(target.port || 6379), target.hostname);
    const relay: Relay = { client, redis, listening: false, held: [] };
    relays.add(relay);
    client.on('data', (chunk: Buffer) => {
      if (!relay.listening && SUBSCRIBES.test(chunk.toString('latin1'))) relay.listening = true;
      redis.write(chunk);
    });
    redis.on('data', (chunk: Buffer) => {
      if (holding && relay.listening) relay.held.push(chunk);
      else client.write(chunk);
    });
    const end = () => {
      relays.delete(relay);
      client.destroy();
      redis.destroy();
    };
    for (const socket of [client, redis]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = Object.assign(new URL(redisUrl), { host: `127.0.0.1:${port}` }).toString();

  return {
    url,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const relay of relays) for (const chunk of relay.held.splice(0)) relay.client.write(chunk);
    },
    async close() {
      for (const relay of relays) {
        relay.client.destroy();
        relay.redis.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
