/** The bus between instances: in one process, and through Redis pub/sub between two. */
import { Redis } from 'ioredis';
import { type Bus, type RedisBusOptions, localBus, redisBus } from '../../server/instance/bus';
import type { MissedReason } from '../../server/instance/busSequence';

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
  const instance = (options?: RedisBusOptions) => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const bus = redisBus(redis, quietLog, options);
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

  /** Polls `check` until it holds (no time asserted: the test's own timeout bounds it). */
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  /**
   * `two` hears `one`'s messages on `channel` through `faults` (its heartbeats too when `beats`),
   * once it has heard one message of `one` (number 1) straight; what it reports missed then is kept.
   */
  async function pair(faults: NonNullable<RedisBusOptions['faults']>, { heartbeatMs = 1_000, beats = false } = {}) {
    const one = instance({ heartbeatMs });
    const missed: MissedReason[] = [];
    const channel = `test-${Math.random()}`;
    const faulted = (raw: string) => {
      const envelope = JSON.parse(raw) as { from: string; channel?: string; beat?: true };
      return envelope.from === one.position().id && (envelope.channel === channel || (beats && envelope.beat));
    };
    const two = instance({
      heartbeatMs,
      faults: (raw, deliver) => (faulted(raw) ? faults(raw, deliver) : deliver(raw)),
    });
    const heard: unknown[] = [];
    two.subscribe(channel, (m) => heard.push(m));
    two.subscribe('warm', () => {});
    await two.ready();
    one.publish('warm', 'number 1');
    await until(() => two.caughtUp(one.position().id, 1) === true);
    two.onMissed((reason) => missed.push(reason));
    return { one, two, channel, heard, missed };
  }

  it('forgets when a message is dropped, once the next one shows the gap; a duplicate is delivered once', async () => {
    let n = 0;
    const { one, two, channel, heard, missed } = await pair((raw, deliver) => {
      n += 1;
      if (n === 2) return; // the second message is lost
      deliver(raw);
      if (n === 3) deliver(raw); // the third arrives twice
    });
    for (const m of ['a', 'b', 'c']) one.publish(channel, m);
    await until(() => two.caughtUp(one.position().id, 4) === true);
    expect(heard).toEqual(['a', 'c']);
    expect(missed).toEqual(['gap']);
  });

  it('forgets when the messages arrive out of order, and drops the late one', async () => {
    let held: string | null = null;
    const { one, two, channel, heard, missed } = await pair((raw, deliver) => {
      const { message } = JSON.parse(raw) as { message?: string };
      if (message === 'first') return void (held = raw);
      deliver(raw);
      if (held) deliver(held);
    });
    one.publish(channel, 'first');
    one.publish(channel, 'second');
    await until(() => two.caughtUp(one.position().id, 3) === true);
    expect(heard).toEqual(['second']);
    expect(missed).toEqual(['gap']);
  });

  it("forgets when the publisher's last message is lost, at its next heartbeat", async () => {
    const { one, two, channel, heard, missed } = await pair(() => {}, { heartbeatMs: 20 });
    one.publish(channel, 'lost');
    const caught = await two.caughtUp(one.position().id, 2);
    expect(caught).toBe(true);
    expect(heard).toEqual([]);
    expect(missed).toEqual(['gap']);
  });

  it('waits for a position it has not heard, and says false past the bound', async () => {
    const { one, two, channel } = await pair(() => {}, { heartbeatMs: 10, beats: true }); // hears nothing more of `one`
    one.publish(channel, 'unheard');
    expect(await two.caughtUp(one.position().id, 2)).toBe(false);
  });

  it('does not hear the bus while its own heartbeats do not come back', async () => {
    const deaf = instance({ heartbeatMs: 10, faults: () => {} });
    deaf.subscribe('x', () => {});
    await deaf.ready();
    await until(() => !deaf.hearing());
    const hearing = instance({ heartbeatMs: 10 });
    hearing.subscribe('x', () => {});
    await hearing.ready();
    await until(() => hearing.hearing());
  });

  it('forgets for a publisher that falls silent past the bound, and not for one that says goodbye', async () => {
    // Heartbeats every 200 ms: a busy machine's pauses stay well inside the bound (700 ms).
    const silent = instance({ heartbeatMs: 200 });
    const leaving = instance({ heartbeatMs: 200 });
    let cut = false;
    const missed: MissedReason[] = [];
    const listener = instance({
      heartbeatMs: 200,
      faults: (raw, deliver) => {
        // Only these two (and itself): the other tests' buses beat at their own pace.
        const from = (JSON.parse(raw) as { from: string }).from;
        if (from === silent.position().id ? !cut : from === leaving.position().id || from === listener.position().id)
          deliver(raw);
      },
    });
    listener.onMissed((reason) => missed.push(reason));
    listener.subscribe('x', () => {});
    await listener.ready();
    for (const bus of [silent, leaving]) bus.publish('x', 1);
    await until(() => [silent, leaving].every((bus) => listener.caughtUp(bus.position().id, 1) === true));
    await leaving.close();
    cut = true; // as if `silent` were killed
    await until(() => missed.includes('silence'));
    expect(missed).toEqual(['silence']);
  });
});
