/**
 * Mentions of people elsewhere by their own server's names (issue 67, item 2): `@ok@host` (two
 * letters, as Mastodon allows) and `@dash-name@host` (a `-`, as Pleroma, Akkoma and Misskey allow),
 * not kept here before, are looked up (WebFinger, then their actor), linked in the post's
 * `mentions`, and the Note delivered to them carries their `Mention` tags. `@ann@` this site's host
 * is Ann here.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createPost } from './factories';
import { clientFor, userToken } from './mastodon/oauthFlow';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

let t: TestApp;
let local: string;
let remote: RemoteServer;
let ann: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  remote = await startRemoteServer(['ok', 'dash-name']);
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
  bob = await signIn(t.app, { username: 'bob' });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

type Tag = { type: string; href?: string; name?: string };
type Delivered = { type: string; object?: { type?: string; content?: string; tag?: Tag | Tag[] } };

/** The Creates delivered whose Note's content contains `text`, with that Note's tags. */
const deliveredNote = (text: string) =>
  until(() => {
    const found = (remote.delivered() as Delivered[]).find(
      (a) => a.type === 'Create' && a.object?.content?.includes(text),
    );
    if (!found) return null;
    const tags = found.object!.tag;
    return { content: found.object!.content!, tags: tags === undefined ? [] : Array.isArray(tags) ? tags : [tags] };
  });

describe('mentions of people elsewhere by their server’s names', () => {
  it('a post naming @ok@host and @dash-name@host links and delivers to both', async () => {
    const host = remote.host;
    const post = await createPost(t.app, ann, { message: `Hi @ok@${host} and @dash-name@${host}.` });
    expect(post.mentions).toEqual([`ok@${host}`, `dash-name@${host}`]);
    const note = await deliveredNote('Hi ');
    const mentions = note.tags.filter((tag) => tag.type === 'Mention');
    expect(mentions.sort((a, b) => a.name!.localeCompare(b.name!))).toEqual([
      { type: 'Mention', href: remote.actorUri('dash-name'), name: `@dash-name@${host}` },
      { type: 'Mention', href: remote.actorUri('ok'), name: `@ok@${host}` },
    ]);
    expect(note.content).toContain(`class="u-url mention">@<span>ok</span></a>`);
    expect(note.content).toContain(`class="u-url mention">@<span>dash-name</span></a>`);
  });

  it('a comment naming @ok@host, now kept, links them; @bob@ this host is Bob here, and he is told', async () => {
    const post = await createPost(t.app, ann, { message: 'A post' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post._id}/comments`,
      headers: ann.headers,
      payload: { message: `@OK@${remote.host} and @bob@${new URL(local).host}, look` },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().mentions).toEqual([`ok@${remote.host}`, 'bob']);
    const told = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: bob.headers });
    expect((told.json() as { type: string }[]).map((n) => n.type)).toContain('mention');
  });

  it('a client API status naming a name elsewhere with a dash: in its mentions, linked in its content', async () => {
    const api = clientFor(local, await userToken(local, ann, 'read write'));
    const png = path.resolve(import.meta.dirname, '../fixtures/pngsuite/png/basn2c08.png');
    const media = await api.v2.media.create({ file: new Blob([await readFile(png)], { type: 'image/png' }) });
    const status = await api.v1.statuses.create({
      status: `It's @dash-name@${remote.host}'s #turn`,
      mediaIds: [media.id],
    });
    expect(status.mentions.map((m) => m.acct)).toEqual([`dash-name@${remote.host}`]);
    expect(status.content).toContain(`class="u-url mention">@<span>dash-name</span></a>`);
    expect(status.content).toContain('It&#39;s');
    expect(status.content).not.toContain('tagged/39');
    expect(status.tags.map((tag) => tag.name)).toEqual(['turn']);
  });

  it('a name elsewhere that no server knows stays text', async () => {
    const post = await createPost(t.app, ann, { message: `Hi @nobody@${remote.host}` });
    expect(post.mentions).toEqual([]);
  });
});
