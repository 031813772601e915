/** The bus between instances: in one process, and through Redis pub/sub between two. */
import { Redis } from 'ioredis';
import { type Bus, localBus, redisBus } from '../../server/instance/bus';

const quietLog = { warn: () => {} };

const nextMessage = (bus: Bus, channel: string) =>
  new Promise<unknown>((resolve) => {
    const stop = bus.subscribe(channel, (message) => {
      stop();
      resolve(message);
    });
  });

describe('localBus', () => {
  it('delivers to every subscriber of the channel, at once, and stops after unsubscribing', () => {
    const bus = localBus(quietLog);
    const heard: unknown[] = [];
    const stop = bus.subscribe('sessions', (m) => heard.push(['a', m]));
    bus.subscribe('sessions', (m) => heard.push(['b', m]));
    bus.subscribe('other', (m) => heard.push(['other', m]));
    bus.publish('sessions', { id: 1 });
    stop();
    bus.publish('sessions', { id: 2 });
    expect(heard).toEqual([
      ['a', { id: 1 }],
      ['b', { id: 1 }],
      ['b', { id: 2 }],
    ]);
  });

  it('keeps delivering to the others when one subscriber throws', () => {
    const warnings: unknown[] = [];
    const bus = localBus({ warn: (obj) => warnings.push(obj) });
    const heard: unknown[] = [];
    bus.subscribe('c', () => {
      throw new Error('broken');
    });
    bus.subscribe('c', (m) => heard.push(m));
    bus.publish('c', 'x');
    expect(heard).toEqual(['x']);
    expect(warnings).toHaveLength(1);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('redisBus', () => {
  const connections: Redis[] = [];
  const buses: Bus[] = [];
  const instance = () => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const bus = redisBus(redis, quietLog);
    connections.push(redis);
    buses.push(bus);
    return bus;
  };
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    for (const redis of connections) await redis.quit();
  });

  it('carries a message to another instance, and to its own subscribers exactly once', async () => {
    const [one, two] = [instance(), instance()];
    const channel = `test-${Math.random()}`;
    const heardHere: unknown[] = [];
    one.subscribe(channel, (m) => heardHere.push(m));
    const onTwo = nextMessage(two, channel);
    await Promise.all([one.ready(), two.ready()]);

    one.publish(channel, { sessionId: 's1' });
    expect(heardHere).toEqual([{ sessionId: 's1' }]); // synchronously, before Redis answers
    expect(await onTwo).toEqual({ sessionId: 's1' });

    // The echo from Redis came back to `one` too: give it time, then check it was dropped.
    const roundTrip = nextMessage(one, channel);
    two.publish(channel, 'ping');
    expect(await roundTrip).toBe('ping');
    expect(heardHere).toEqual([{ sessionId: 's1' }, 'ping']);
  });

  it('stops hearing a channel once its last subscriber leaves', async () => {
    const [one, two] = [instance(), instance()];
    const channel = `test-${Math.random()}`;
    const heard: unknown[] = [];
    const stop = two.subscribe(channel, (m) => heard.push(m));
    const marker = `${channel}-marker`;
    const markerHeard = nextMessage(two, marker);
    await two.ready();
    stop();
    await two.ready();
    one.publish(channel, 'unheard');
    one.publish(marker, 'done');
    // Redis delivers in order: once the later marker arrives, the earlier message would have too.
    expect(await markerHeard).toBe('done');
    expect(heard).toEqual([]);
  });
});
