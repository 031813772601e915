/**
 * The client API's streaming (issue 33): WebSocket `/api/v1/streaming` (through `masto`'s streaming
 * client and a bare WebSocket) and its Server-Sent Events form, fed by the same events as the
 * notification streams, with the lists' visibility rules, ended when the token is revoked.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { createStreamingAPIClient, type mastodon } from 'masto';
import { type SignedInUser, type TestApp, createTestApp, signIn } from '../helpers';
import { clientFor, listenOn, userToken } from './oauthFlow';
import { type StreamMessage, streamingSocket, until } from './streamingSocket';
import { SUBSCRIPTIONS_PER_CONNECTION_MAX } from '../../../server/mastodon/streaming';

const PNG = path.resolve(import.meta.dirname, '../../fixtures/pngsuite/png/basn2c08.png');

let t: TestApp;
let url: string;
let streamingUrl: string;
let alice: SignedInUser;
let bob: SignedInUser;
let aliceToken: string;
let aliceApi: mastodon.rest.Client;
let bobApi: mastodon.rest.Client;
beforeAll(async () => {
  t = await createTestApp();
  url = await listenOn(t);
  alice = await signIn(t.app);
  bob = await signIn(t.app);
  aliceToken = await userToken(url, alice, 'read write follow');
  aliceApi = clientFor(url, aliceToken);
  bobApi = clientFor(url, await userToken(url, bob, 'read write follow'));
  streamingUrl = (await aliceApi.v1.instance.fetch()).urls.streamingApi;
});
afterAll(async () => {
  await t.close();
});

async function post(api: mastodon.rest.Client, status: string, visibility?: mastodon.v1.StatusVisibility) {
  const file = new Blob([await readFile(PNG)], { type: 'image/png' });
  const media = await api.v2.media.create({ file, description: 'A test card' });
  return api.v1.statuses.create({ status, mediaIds: [media.id], visibility });
}

/** A bare WebSocket on the streaming path, its messages kept in order. */
const socket = (query: string, protocols?: string | string[]) =>
  streamingSocket(`${streamingUrl}/api/v1/streaming${query}`, protocols);

/** A bare HTTP request asking for the upgrade: a refusal is an ordinary HTTP answer, read here. */
function upgradeRefusal(base: string, query: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(`${base}/api/v1/streaming${query}`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', () => reject(new Error('upgraded')));
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const statusOf = (m: StreamMessage) =>
  JSON.parse(m.payload) as { id: string; content: string; account: { id: string } };

describe('WebSocket', () => {
  it("a user stream (masto's streaming client) receives a followee's new post and a notification", async () => {
    await aliceApi.v1.accounts.$select(bob.id).follow();
    const streaming = createStreamingAPIClient({
      streamingApiUrl: streamingUrl,
      accessToken: aliceToken,
      retry: false,
    });
    const subscription = streaming.user.subscribe();
    const events: mastodon.streaming.Event[] = [];
    const reading = (async () => {
      for await (const event of subscription) events.push(event);
    })();
    try {
      await until(() => t.app.clientStreams.subscriptionsOf(alice.id) === 1, 'the subscription');
      const created = await post(bobApi, 'Fresh from the oven #bread');
      await until(() => events.some((e) => e.event === 'update' && e.payload.id === created.id), 'the update');
      const update = events.find((e) => e.event === 'update')! as mastodon.streaming.UpdateEvent;
      expect(update.stream).toEqual(['user']);
      expect(update.payload).toMatchObject({ id: created.id, account: { id: bob.id }, text: created.text });

      await bobApi.v1.accounts.$select(alice.id).follow();
      await until(() => events.some((e) => e.event === 'notification'), 'the notification');
      const notification = events.find((e) => e.event === 'notification')! as mastodon.streaming.NotificationEvent;
      expect(notification.payload).toMatchObject({ type: 'follow', account: { id: bob.id } });
    } finally {
      subscription.unsubscribe();
      streaming.close();
      await reading.catch(() => undefined);
    }
  });

  it('public:local and hashtag streams, by query and by subscribe messages; edits and deletes follow', async () => {
    const s = await socket(`?stream=public:local&access_token=${aliceToken}`);
    s.ws.send(JSON.stringify({ type: 'subscribe', stream: 'hashtag', tag: 'Kites' }));
    await until(() => t.app.clientStreams.subscriptionsOf(alice.id) === 2, 'both subscriptions');
    const other = await post(bobApi, 'Windy day #weather');
    const kites = await post(bobApi, 'On the beach #kites');
    const everyone = await s.next((m) => m.event === 'update' && statusOf(m).id === other.id);
    expect(everyone.stream).toEqual(['public:local']);
    // The kite post comes to both streams; the weather post to the hashtag stream never.
    await s.next((m) => m.event === 'update' && m.stream[0] === 'hashtag' && statusOf(m).id === kites.id);
    await s.next((m) => m.event === 'update' && m.stream[0] === 'public:local' && statusOf(m).id === kites.id);
    expect(s.messages.filter((m) => m.stream[0] === 'hashtag').map((m) => statusOf(m).id)).toEqual([kites.id]);
    expect(s.messages.find((m) => m.stream[0] === 'hashtag')!.stream).toEqual(['hashtag', 'Kites']);

    await bobApi.v1.statuses.$select(kites.id).update({ status: 'On the beach, flying #kites' });
    const edited = await s.next((m) => m.event === 'status.update');
    expect(statusOf(edited).content).toContain('flying');
    await bobApi.v1.statuses.$select(kites.id).remove();
    const deleted = await s.next((m) => m.event === 'delete');
    expect(deleted.payload).toBe(kites.id);

    // Unsubscribed from the tag: only the public stream hears the next one.
    s.ws.send(JSON.stringify({ type: 'unsubscribe', stream: 'hashtag', tag: 'Kites' }));
    await until(() => t.app.clientStreams.subscriptionsOf(alice.id) === 1, 'the unsubscription');
    const from = s.messages.length;
    const again = await post(bobApi, 'More kites #kites');
    await s.next((m) => m.event === 'update' && statusOf(m).id === again.id, from);
    expect(s.messages.slice(from).map((m) => m.stream[0])).toEqual(['public:local']);
    s.ws.close();
  });

  it("a blocked author's post is not sent; the next visible one is", async () => {
    const carol = await signIn(t.app);
    const carolApi = clientFor(url, await userToken(url, carol));
    await aliceApi.v1.accounts.$select(carol.id).block();
    const s = await socket(`?stream=public:local&access_token=${aliceToken}`);
    const hidden = await post(carolApi, 'You will not see this #hidden');
    const shown = await post(bobApi, 'But this one #shown');
    // One connection's events are written in the order they came: the blocked post would come first.
    await s.next((m) => m.event === 'update' && statusOf(m).id === shown.id);
    expect(s.messages.some((m) => m.event === 'update' && statusOf(m).id === hidden.id)).toBe(false);
    s.ws.close();
  });

  it('a followers-only post goes to the followers’ user streams only, never to the public ones (issue 70)', async () => {
    const [dan, eve] = [await signIn(t.app), await signIn(t.app)];
    const danApi = clientFor(url, await userToken(url, dan, 'read write follow'));
    const eveToken = await userToken(url, eve, 'read write follow');
    await clientFor(url, eveToken).v1.accounts.$select(dan.id).follow();
    const publicStream = await socket(`?stream=public:local&access_token=${aliceToken}`);
    const follower = await socket(`?stream=user&access_token=${eveToken}`);
    const quiet = await post(danApi, 'For my followers #quiet', 'private');
    const open = await post(danApi, 'For everyone #open');
    const isUpdate = (id: string) => (m: StreamMessage) => m.event === 'update' && statusOf(m).id === id;
    // One connection's events are written in the order they came: the quiet post would come first.
    await publicStream.next(isUpdate(open.id));
    expect(publicStream.messages.some(isUpdate(quiet.id))).toBe(false);
    const got = await follower.next(isUpdate(quiet.id));
    expect(JSON.parse(got.payload)).toMatchObject({ visibility: 'private' });
    publicStream.ws.close();
    follower.ws.close();
  });

  it('takes the token as the subprotocol and echoes it back', async () => {
    const s = await socket('?stream=user', aliceToken);
    expect(s.ws.protocol).toBe(aliceToken);
    s.ws.close();
  });

  it('refuses a missing or wrong token, and an unknown stream, with { error } before the upgrade', async () => {
    const refused = (query: string, headers: Record<string, string> = {}) => upgradeRefusal(url, query, headers);
    expect(await refused('?stream=user')).toEqual({ status: 401, body: { error: 'The access token is invalid' } });
    expect(await refused('?stream=user&access_token=nope')).toMatchObject({ status: 401 });
    expect(await refused('?stream=lists', { authorization: `Bearer ${aliceToken}` })).toEqual({
      status: 400,
      body: { error: 'Unknown stream type' },
    });
  });

  it('refuses another Host (DNS rebinding) with 421, as every other request', async () => {
    expect(
      await upgradeRefusal(url, '?stream=user', { authorization: `Bearer ${aliceToken}`, host: 'rebound.example' }),
    ).toEqual({ status: 421, body: { error: 'This server does not answer for that host name' } });
    // A cookie alone never opens a stream, whatever the Origin: only a token does.
    expect(await upgradeRefusal(url, '?stream=user', { cookie: alice.headers.cookie, origin: url })).toMatchObject({
      status: 401,
    });
  });

  it('checks tags as posts’ tags, and caps the streams one connection follows', async () => {
    const auth = { authorization: `Bearer ${aliceToken}` };
    expect(await upgradeRefusal(url, `?stream=hashtag&tag=${'a'.repeat(31)}`, auth)).toEqual({
      status: 400,
      body: { error: 'Invalid tag: at most 30 characters' },
    });
    expect(await upgradeRefusal(url, '?stream=hashtag&tag=no%20spaces', auth)).toMatchObject({ status: 400 });
    const s = await socket(`?access_token=${aliceToken}`);
    const errors = () => s.ws.readyState === s.ws.OPEN && s.messages.length;
    s.ws.send(JSON.stringify({ type: 'subscribe', stream: 'hashtag', tag: 'x'.repeat(40) }));
    for (let i = 0; i < SUBSCRIPTIONS_PER_CONNECTION_MAX + 5; i++)
      s.ws.send(JSON.stringify({ type: 'subscribe', stream: 'hashtag', tag: `tag${i}` }));
    await until(() => errors() === 6, 'six refusals');
    expect(s.messages.map((m) => (m as unknown as { error: string }).error)).toEqual([
      'Invalid tag: at most 30 characters',
      ...Array(5).fill(
        `At most ${SUBSCRIPTIONS_PER_CONNECTION_MAX} streams per connection; unsubscribe from one first`,
      ),
    ]);
    expect(t.app.clientStreams.subscriptionsOf(alice.id)).toBe(SUBSCRIPTIONS_PER_CONNECTION_MAX);
    s.ws.close();
    await until(() => t.app.clientStreams.subscriptionsOf(alice.id) === 0, 'the stream to close');
  });

  it('a revoked token ends its stream at once', async () => {
    const dave = await signIn(t.app);
    const token = await userToken(url, dave);
    const s = await socket(`?stream=user&access_token=${token}`);
    const apps = (await t.app.inject({ method: 'GET', url: '/api/auth/apps', headers: dave.headers })).json();
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/apps/${apps[0].id}`,
      headers: dave.headers,
    });
    expect(revoked.statusCode).toBe(204);
    await until(() => s.closed() !== null, 'the stream to end');
    expect(s.closed()!.code).toBe(1000);
    expect(t.app.clientStreams.subscriptionsOf(dave.id)).toBe(0);
  });
});

describe('Server-Sent Events', () => {
  it('the hashtag stream sends update events; health answers OK', async () => {
    const health = await fetch(`${url}/api/v1/streaming/health`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('OK');

    const controller = new AbortController();
    const res = await fetch(`${url}/api/v1/streaming/hashtag?tag=gardens&access_token=${aliceToken}`, {
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })().catch(() => undefined);
    await until(() => t.app.clientStreams.subscriptionsOf(alice.id) >= 1, 'the SSE stream');
    const created = await post(bobApi, 'Tomatoes #Gardens');
    await until(() => text.includes('event: update'), 'the update event');
    const data = /event: update\ndata: (.*)\n\n/.exec(text)![1];
    expect(JSON.parse(data)).toMatchObject({ id: created.id, account: { id: bob.id } });
    controller.abort();
    await reading;
  });

  it('without a token: 401 { error }', async () => {
    const res = await fetch(`${url}/api/v1/streaming/public/local`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'The access token is invalid' });
  });
});

describe('caps shared with the notification streams', () => {
  let capped: TestApp;
  afterAll(async () => {
    await capped?.close();
  });

  it('SSE_STREAMS_PER_IP counts both kinds: a WebSocket past it is refused with 429 { error }', async () => {
    capped = await createTestApp({ SSE_STREAMS_PER_IP: '1' });
    const cappedUrl = await listenOn(capped);
    const erin = await signIn(capped.app);
    const token = await userToken(cappedUrl, erin);
    const controller = new AbortController();
    const notifications = await fetch(`${cappedUrl}/api/notifications/stream`, {
      headers: erin.headers,
      signal: controller.signal,
    });
    expect(notifications.status).toBe(200);
    const refused = await upgradeRefusal(cappedUrl, `?stream=user&access_token=${token}`);
    expect(refused).toEqual({
      status: 429,
      body: { error: 'Too many streams are open from your address; close one first' },
    });
    // Once the notification stream closes, its slot is the WebSocket's.
    controller.abort();
    await until(() => capped.app.ctx.streamSlots.size === 0, 'the slot to be given back');
    const ws = new WebSocket(`${cappedUrl.replace('http', 'ws')}/api/v1/streaming?stream=user&access_token=${token}`);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error('WebSocket refused')), { once: true });
    });
    ws.close();
  });
});
