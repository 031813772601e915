/**
 * People and posts from elsewhere in the Mastodon client API (issues 32 and 33): an Account of
 * someone elsewhere is `acct` `name@host`, `username` `name`, `url` their page on their server and
 * `uri` their actor; their post's status has its Note's id as `uri` and the original's page as
 * `url`; mentions (entries and links in `content`) name them the same way, in single statuses and
 * in timelines. Zoe is on a small Fedify server on loopback and sends her post as a server would.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { mastodon } from 'masto';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from '../helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from '../remoteServer';
import { clientFor, userToken } from './oauthFlow';
import { streamingSocket } from './streamingSocket';

const PNG = path.resolve(import.meta.dirname, '../../fixtures/pngsuite/png/basn2c08.png');
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

let t: TestApp;
let site: string;
let remote: RemoteServer;
let alice: SignedInUser;
let api: mastodon.rest.Client;
let zoeActor: string;
let zoeAcct: string;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe']);
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: site, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  alice = await signIn(t.app, { username: 'alice' });
  api = clientFor(site, await userToken(site, alice, 'read write follow'));
  zoeActor = remote.actorUri('zoe');
  zoeAcct = `zoe@${remote.host}`;
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

describe('someone elsewhere in the client API', () => {
  let zoePostId: string;
  const noteId = () => `${remote.origin}/notes/hello`;

  beforeAll(async () => {
    // Zoe's post names Alice, so it is kept here.
    const sent = await remote.signedPost('zoe', `${site}/inbox`, {
      id: `${remote.origin}/creates/hello`,
      type: 'Create',
      actor: zoeActor,
      to: PUBLIC,
      object: {
        id: noteId(),
        type: 'Note',
        attributedTo: zoeActor,
        url: `${remote.origin}/@zoe/hello`,
        content: `<p>Hello @alice@${new URL(site).host}</p>`,
        attachment: [{ type: 'Image', mediaType: 'image/png', url: `${remote.origin}/media/1.png` }],
        tag: [{ type: 'Mention', href: `${site}/users/${alice.id}`, name: `@alice@${new URL(site).host}` }],
        to: PUBLIC,
      },
    });
    expect(sent.status).toBe(202);
    zoePostId = (
      await until(() => t.db.kysely.selectFrom('posts').select('id').where('uri', '=', noteId()).executeTakeFirst())
    ).id;
  });

  it('is an Account with acct name@host, username name, their page as url and their actor as uri', async () => {
    const zoe = await api.v1.accounts.lookup({ acct: zoeAcct });
    expect(zoe).toMatchObject({
      acct: zoeAcct,
      username: 'zoe',
      displayName: 'zoe',
      url: `${remote.origin}/@zoe`,
      uri: zoeActor,
    });
    expect(await api.v1.accounts.$select(zoe.id).fetch()).toMatchObject({ acct: zoeAcct, uri: zoeActor });
    // A local person is unchanged.
    expect(await api.v1.accounts.verifyCredentials()).toMatchObject({
      username: 'alice',
      acct: 'alice',
      url: `${site}/profile/alice`,
    });
  });

  it("her post's status: the Note's id as uri, the original's page as url, Alice mentioned", async () => {
    const status = await api.v1.statuses.$select(zoePostId).fetch();
    expect(status).toMatchObject({
      uri: noteId(),
      url: `${remote.origin}/@zoe/hello`,
      account: { acct: zoeAcct, username: 'zoe', uri: zoeActor },
    });
    expect(status.mentions).toEqual([{ id: alice.id, username: 'alice', acct: 'alice', url: `${site}/profile/alice` }]);
    // `@alice@<this host>` is Alice here: linked to her profile.
    expect(status.content).toContain(`<a href="${site}/profile/alice" class="u-url mention">@<span>alice</span></a>`);
    // Her statuses list (statuses written from the same rows).
    const listed = await api.v1.accounts.$select(status.account.id).statuses.list();
    expect(listed.map((s) => [s.id, s.uri, s.account.acct])).toEqual([[zoePostId, noteId(), zoeAcct]]);
  });

  it("Alice's post naming @zoe@host: the mention names Zoe and links her page, in the status and the timeline", async () => {
    const file = new Blob([await readFile(PNG)], { type: 'image/png' });
    const media = await api.v2.media.create({ file });
    const created = await api.v1.statuses.create({ status: `Hi @${zoeAcct} #waves`, mediaIds: [media.id] });
    const zoe = await api.v1.accounts.lookup({ acct: zoeAcct });
    const mention = { id: zoe.id, username: 'zoe', acct: zoeAcct, url: `${remote.origin}/@zoe` };
    expect(created.uri).toBe(`${site}/post/${created.id}`);
    expect(created.mentions).toEqual([mention]);
    expect(created.content).toContain(`<a href="${remote.origin}/@zoe" class="u-url mention">@<span>zoe</span></a>`);
    // The home timeline's answer is written apart (accounts once, kept status bytes): the same.
    const home = await api.v1.timelines.home.list();
    const mine = home.find((s) => s.id === created.id)!;
    expect(mine.mentions).toEqual([mention]);
    expect(mine.content).toBe(created.content);
  });

  it("comments' statuses: hers with her Note's id as uri and url; the people a comment names as mentions", async () => {
    const file = new Blob([await readFile(PNG)], { type: 'image/png' });
    const media = await api.v2.media.create({ file });
    const post = await api.v1.statuses.create({ status: 'Comment on this #thread', mediaIds: [media.id] });
    const cleo = await signIn(t.app, { username: 'cleo' });
    const replyId = `${remote.origin}/notes/reply`;
    const sent = await remote.signedPost('zoe', `${site}/inbox`, {
      id: `${remote.origin}/creates/reply`,
      type: 'Create',
      actor: zoeActor,
      to: PUBLIC,
      object: {
        id: replyId,
        type: 'Note',
        attributedTo: zoeActor,
        inReplyTo: `${site}/post/${post.id}`,
        content: `<p>Nice one @alice@${new URL(site).host}</p>`,
        tag: [
          { type: 'Mention', href: `${site}/users/${alice.id}`, name: `@alice@${new URL(site).host}` },
          { type: 'Mention', href: `${site}/users/${cleo.id}`, name: `@cleo@${new URL(site).host}` },
        ],
        to: PUBLIC,
      },
    });
    expect(sent.status).toBe(202);
    const commentId = (
      await until(() => t.db.kysely.selectFrom('comments').select('id').where('uri', '=', replyId).executeTakeFirst())
    ).id;
    const status = await api.v1.statuses.$select(commentId).fetch();
    expect(status).toMatchObject({ uri: replyId, url: replyId, inReplyToId: post.id, account: { acct: zoeAcct } });
    // Her Note's `Mention` tag names Alice: in its mentions, linked in its content.
    const aliceMention = { id: alice.id, username: 'alice', acct: 'alice', url: `${site}/profile/alice` };
    const cleoMention = { id: cleo.id, username: 'cleo', acct: 'cleo', url: `${site}/profile/cleo` };
    expect(status.mentions).toEqual([aliceMention, cleoMention]);
    // Cleo, named but not the post's author, is told of it as a mention.
    const told = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: cleo.headers });
    expect(
      (told.json() as { type: string; actor: { username: string } }[]).map((n) => [n.type, n.actor.username]),
    ).toEqual([['mention', zoeAcct]]);
    expect(status.content).toContain(`<a href="${site}/profile/alice" class="u-url mention">@<span>alice</span></a>`);
    // Alice's own comment naming Zoe: this site's address, and Zoe in its mentions.
    const own = await api.v1.statuses.create({ status: `Thanks @${zoeAcct}`, inReplyToId: post.id });
    const zoe = await api.v1.accounts.lookup({ acct: zoeAcct });
    const zoeMention = { id: zoe.id, username: 'zoe', acct: zoeAcct, url: `${remote.origin}/@zoe` };
    expect(own.uri).toBe(`${site}/post/${post.id}#${own.id}`);
    expect(own.mentions).toEqual([zoeMention]);
    expect(own.content).toContain(`<a href="${remote.origin}/@zoe" class="u-url mention">@<span>zoe</span></a>`);
    expect((await api.v1.statuses.$select(own.id).fetch()).mentions).toEqual([zoeMention]);
    // The post's thread writes both alike.
    const thread = await api.v1.statuses.$select(post.id).context.fetch();
    expect(thread.descendants.map((s) => [s.id, s.uri, s.url, s.mentions])).toEqual([
      [commentId, replyId, replyId, [aliceMention, cleoMention]],
      [own.id, own.uri, own.url, [zoeMention]],
    ]);
  });

  it('is limited while her server is silenced: in her Account, her statuses and the REST profile', async () => {
    await makeAdmin(t, alice);
    const follow = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${encodeURIComponent(zoeAcct)}/follow`,
      headers: alice.headers,
    });
    expect(follow.statusCode, follow.body).toBe(200);
    const seen = async () => {
      const home = await api.v1.timelines.home.list();
      return {
        account: (await api.v1.accounts.lookup({ acct: zoeAcct })).limited,
        status: (await api.v1.statuses.$select(zoePostId).fetch()).account.limited,
        home: home.find((s) => s.id === zoePostId)?.account.limited,
        profile: (
          await t.app.inject({
            method: 'GET',
            url: `/api/users/${encodeURIComponent(zoeAcct)}`,
            headers: alice.headers,
          })
        ).json().user.silenced,
      };
    };
    // Read once before: the authors' facts are kept, and the block must make them forgotten.
    expect(await seen()).toEqual({ account: undefined, status: undefined, home: undefined, profile: undefined });
    const domains = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: alice.headers, ...(payload && { payload }) });
    const silenced = await domains('POST', '/api/admin/domains', { domain: remote.host, severity: 'silence' });
    expect(silenced.statusCode, silenced.body).toBe(201);
    expect(await seen()).toEqual({ account: true, status: true, home: true, profile: true });
    // A local person is never limited.
    expect((await api.v1.accounts.verifyCredentials()).limited).toBeUndefined();
    const lifted = await domains('DELETE', `/api/admin/domains/${encodeURIComponent(remote.host)}`);
    expect(lifted.statusCode, lifted.body).toBe(204);
    expect(await seen()).toEqual({ account: undefined, status: undefined, home: undefined, profile: undefined });
  });
});

describe("a tag's timeline and streams, from here and from elsewhere", () => {
  it('`local` lists the posts from here, `remote` those from elsewhere; `hashtag:local` streams only those from here', async () => {
    const token = await userToken(site, alice, 'read');
    // A socket per stream, each subscribed as it opens (the query's stream).
    const [tagStream, localTagStream] = await Promise.all(
      ['hashtag', 'hashtag:local'].map((stream) =>
        streamingSocket(
          `${site.replace('http', 'ws')}/api/v1/streaming?stream=${stream}&tag=Lanterns&access_token=${token}`,
        ),
      ),
    );
    try {
      // Zoe's post with the tag (naming Alice, so it is kept here), then Alice's.
      const noteId = `${remote.origin}/notes/lanterns`;
      const sent = await remote.signedPost('zoe', `${site}/inbox`, {
        // `Hashtag` is Mastodon's extension of the vocabulary, named in its context as Mastodon does.
        '@context': ['https://www.w3.org/ns/activitystreams', { Hashtag: 'as:Hashtag' }],
        id: `${remote.origin}/creates/lanterns`,
        type: 'Create',
        actor: zoeActor,
        to: PUBLIC,
        object: {
          id: noteId,
          type: 'Note',
          attributedTo: zoeActor,
          content: `<p>Lanterns for @alice@${new URL(site).host} #lanterns</p>`,
          attachment: [{ type: 'Image', mediaType: 'image/png', url: `${remote.origin}/media/2.png` }],
          tag: [
            { type: 'Mention', href: `${site}/users/${alice.id}`, name: `@alice@${new URL(site).host}` },
            { type: 'Hashtag', href: `${remote.origin}/tags/lanterns`, name: '#lanterns' },
          ],
          to: PUBLIC,
        },
      });
      expect(sent.status).toBe(202);
      const zoes = (
        await until(() => t.db.kysely.selectFrom('posts').select('id').where('uri', '=', noteId).executeTakeFirst())
      ).id;
      await tagStream.next((m) => m.stream[0] === 'hashtag' && m.event === 'update');
      const file = new Blob([await readFile(PNG)], { type: 'image/png' });
      const media = await api.v2.media.create({ file });
      const alices = (await api.v1.statuses.create({ status: 'Mine #lanterns', mediaIds: [media.id] })).id;

      const tagged = (params: { local?: boolean; remote?: boolean }) =>
        api.v1.timelines.tag
          .$select('lanterns')
          .list(params)
          .then((list) => list.map((s) => s.id));
      expect(await tagged({})).toEqual([alices, zoes]);
      expect(await tagged({ local: true })).toEqual([alices]);
      expect(await tagged({ remote: true })).toEqual([zoes]);
      // Mastodon's rule when both are set: `local`.
      expect(await tagged({ local: true, remote: true })).toEqual([alices]);
      // "Everyone" holds posts from here only: `remote` lists none of them.
      expect((await api.v1.timelines.public.list({ remote: true })).length).toBe(0);
      expect((await api.v1.timelines.public.list({ local: true })).map((s) => s.id)).toContain(alices);

      // A connection's events come in order: once Alice's post is in a stream, Zoe's was sent to it.
      const sentTo = (socket: typeof tagStream, stream: string) =>
        socket.messages
          .filter((m) => m.stream[0] === stream && m.event === 'update')
          .map((m) => (JSON.parse(m.payload) as { id: string }).id);
      await until(
        () => sentTo(localTagStream, 'hashtag:local').includes(alices) && sentTo(tagStream, 'hashtag').includes(alices),
      );
      expect(sentTo(tagStream, 'hashtag')).toEqual([zoes, alices]);
      expect(sentTo(localTagStream, 'hashtag:local')).toEqual([alices]);
    } finally {
      for (const socket of [tagStream, localTagStream]) socket.ws.close();
    }
  });
});
