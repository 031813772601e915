/**
 * A silenced domain (issue 32, item 6; Mastodon's "limit"): its people are hidden from those who do
 * not follow them — tag pages, people search, a post's comments, notifications, the client API's tag
 * timeline and search — and shown to those who do; their profile and posts stay reachable by their
 * address. Unblocking, or changing the block (silence -> suspend -> silence), shows them again as
 * each severity says, through the caches (each reader reads twice: warm, then after the change).
 */
import type { mastodon } from 'masto';
import type { Post } from '../../lib/types';
import { newId } from '../../server/domain/ids';
import { asAuthUser } from '../../server/federation/remoteContent';
import { remoteRepository } from '../../server/federation/remoteRepository';
import * as migration015 from '../../server/db/migrations/015_domain_silenced';
import { createPost, remoteUserRow } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';
import { clientFor, listenOn, userToken } from './mastodon/oauthFlow';

let t: TestApp;
let url: string;
let admin: SignedInUser;
/** Follows no one from elsewhere. */
let ann: SignedInUser;
/** Follows sam. */
let fay: SignedInUser;
let annApi: mastodon.rest.Client;
let fayApi: mastodon.rest.Client;
/** On `silent.example` and on a subdomain of it (with a port); lou on another server. */
let sam: ReturnType<typeof remoteUserRow>;
let sid: ReturnType<typeof remoteUserRow>;
let lou: ReturnType<typeof remoteUserRow>;
/** A post of ann's that sam, sid and lou comment on. */
let annPost: Post;
const TAG = 'quietdomain';

const block = (severity: 'silence' | 'suspend', domain = 'silent.example') =>
  t.app.inject({ method: 'POST', url: '/api/admin/domains', headers: admin.headers, payload: { domain, severity } });
const unblock = (domain = 'silent.example') =>
  t.app.inject({ method: 'DELETE', url: `/api/admin/domains/${encodeURIComponent(domain)}`, headers: admin.headers });

async function get<T>(user: SignedInUser, path: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url: path, headers: user.headers });
  if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${res.body}`);
  return res.json() as T;
}

/** Who wrote the posts of the tag page (its first page, cached after the first read). */
const taggedBy = async (user: SignedInUser) =>
  (await get<Post[]>(user, `/api/posts/tagged?tags=${TAG}`)).map((p) => p.creator).sort();
const commentersOn = async (user: SignedInUser) =>
  (await get<{ creator: string }[]>(user, `/api/posts/${annPost._id}/comments`)).map((c) => c.creator).sort();
const found = async (user: SignedInUser, q: string) =>
  (await get<{ username: string }[]>(user, `/api/users/search?q=${encodeURIComponent(q)}`)).map((p) => p.username);

async function person(domain: string) {
  const row = remoteUserRow(domain);
  await t.db.kysely.insertInto('users').values(row).execute();
  return row;
}

/** A post of theirs as federation keeps it, through the posts service (mentioning `mentioned`). */
async function remotePost(author: ReturnType<typeof remoteUserRow>, mentioned: string[] = []) {
  const id = newId();
  return t.app.ctx.posts.importRemote(asAuthUser(author), {
    uri: `https://${author.domain}/notes/${id}`,
    url: null,
    message: `from ${author.username}`,
    tags: [TAG],
    image: '/uploads/remote.png',
    mediaId: null,
    alt: '',
    sensitive: false,
    spoiler: '',
    mentionedIds: mentioned,
    published: new Date().toISOString(),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  url = await listenOn(t);
  admin = await signIn(t.app);
  await makeAdmin(t, admin);
  ann = await signIn(t.app, { username: 'ann' });
  fay = await signIn(t.app, { username: 'fay' });
  annApi = clientFor(url, await userToken(url, ann, 'read write follow'));
  fayApi = clientFor(url, await userToken(url, fay, 'read write follow'));
  sam = await person('silent.example');
  sid = await person('a.silent.example:8443');
  lou = await person('loud.example');
  await t.app.inject({
    method: 'PATCH',
    url: `/api/users/${encodeURIComponent(sam.username)}/follow`,
    headers: fay.headers,
  });
  for (const author of [sam, sid, lou]) await remotePost(author);
  await createPost(t.app, ann, { tags: [TAG] });
  annPost = await createPost(t.app, ann, { tags: ['elsewhere'] });
  for (const author of [sam, sid, lou])
    await t.app.ctx.comments.add(asAuthUser(author), annPost._id, `a word from ${author.username}`, {
      uri: `https://${author.domain}/notes/${newId()}`,
    });
});
afterAll(async () => {
  await t.close();
});

const everyone = () => [sam.username, sid.username, lou.username];

describe('a silenced domain', () => {
  it("hides its people from tag pages and comments for those who don't follow them, and shows them again when lifted or suspended then lifted", async () => {
    // Warm: every reader's pages are read (and cached) before each change.
    expect(await taggedBy(ann)).toEqual(['ann', ...everyone()].sort());
    expect(await commentersOn(ann)).toEqual(everyone().sort());
    expect(await commentersOn(fay)).toEqual(everyone().sort());

    expect((await block('silence')).statusCode).toBe(201);
    // ann follows neither: sam and sid (a subdomain, with a port) are gone; fay follows sam only.
    expect(await taggedBy(ann)).toEqual(['ann', lou.username].sort());
    expect(await taggedBy(fay)).toEqual(['ann', sam.username, lou.username].sort());
    expect(await commentersOn(ann)).toEqual([lou.username]);
    expect(await commentersOn(fay)).toEqual([sam.username, lou.username].sort());
    // Their profile and its posts stay reachable by address; so does a post's page.
    const samPosts = await get<Post[]>(ann, `/api/users/${encodeURIComponent(sam.username)}/posts`);
    expect(samPosts.map((p) => p.creator)).toEqual([sam.username]);
    expect((await get<Post>(ann, `/api/posts/${samPosts[0]._id}`)).creator).toBe(sam.username);
    const profile = await get<{ user: { username: string } }>(ann, `/api/users/${encodeURIComponent(sam.username)}`);
    expect(profile.user.username).toBe(sam.username);

    // Suspended, no one sees them; softened to silence again, fay sees sam again.
    expect((await block('suspend')).statusCode).toBe(200);
    expect(await taggedBy(fay)).toEqual(['ann', lou.username].sort());
    expect(await commentersOn(fay)).toEqual([lou.username]);
    expect((await block('silence')).statusCode).toBe(200);
    expect(await taggedBy(fay)).toEqual(['ann', sam.username, lou.username].sort());
    expect(await taggedBy(ann)).toEqual(['ann', lou.username].sort());

    // Lifted: everyone sees everyone again.
    expect((await unblock()).statusCode).toBe(204);
    expect(await taggedBy(ann)).toEqual(['ann', ...everyone()].sort());
    expect(await commentersOn(ann)).toEqual(everyone().sort());
  });

  it('shows a person to a reader who follows them, and hides them again on unfollow', async () => {
    await block('silence');
    expect(await taggedBy(ann)).toEqual(['ann', lou.username].sort());
    const follow = (action: 'follow' | 'unfollow') =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/users/${encodeURIComponent(sid.username)}/${action}`,
        headers: ann.headers,
      });
    expect((await follow('follow')).statusCode).toBe(200);
    expect(await taggedBy(ann)).toEqual(['ann', sid.username, lou.username].sort());
    expect(await commentersOn(ann)).toEqual([sid.username, lou.username].sort());
    expect((await follow('unfollow')).statusCode).toBe(200);
    expect(await taggedBy(ann)).toEqual(['ann', lou.username].sort());
    expect(await commentersOn(ann)).toEqual([lou.username]);
    await unblock();
  });

  it('hides them from people search for those who do not follow them', async () => {
    const samName = sam.username.split('@')[0];
    expect(await found(ann, samName)).toEqual([sam.username]);
    await block('silence');
    expect(await found(ann, samName)).toEqual([]);
    expect(await found(fay, samName)).toEqual([sam.username]);
    await unblock();
    expect(await found(ann, samName)).toEqual([sam.username]);
  });

  it('keeps a person first seen under the block silenced', async () => {
    await block('silence');
    // What remotePeople.ts does with the severity it asks of the domain blocks.
    const repo = remoteRepository(t.db.kysely);
    const id = newId();
    const fields = {
      username: `new${id.slice(-6)}@b.silent.example`,
      domain: 'b.silent.example',
      actor_uri: `https://b.silent.example/users/${id}`,
      inbox_uri: `https://b.silent.example/users/${id}/inbox`,
      shared_inbox_uri: null,
      url: null,
      description: '',
      display_name: null,
    };
    await repo.insertRemotePerson({ id, now: new Date().toISOString(), severity: 'silence', ...fields });
    const kept = await t.db.kysely
      .selectFrom('users')
      .select('domain_silenced')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(Number(kept?.domain_silenced)).toBe(1);
    // Lifting the block gives them back like the others.
    await unblock();
    const after = await t.db.kysely
      .selectFrom('users')
      .select('domain_silenced')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(Number(after?.domain_silenced)).toBe(0);
  });
});

describe("a silenced domain's notifications", () => {
  const types = async (user: SignedInUser) =>
    (await get<{ type: string; actor: { username: string } }[]>(user, '/api/notifications')).map(
      (n) => `${n.type}:${n.actor.username}`,
    );

  it('are not made for those who do not follow the actor, and are hidden while silenced', async () => {
    // Before the silence: a mention of ann (shown, then hidden while silenced, then back).
    await remotePost(sid, [ann.id]);
    expect(await types(ann)).toContain(`mention:${sid.username}`);
    await block('silence');
    expect(await types(ann)).not.toContain(`mention:${sid.username}`);

    // While silenced: sam's like of ann's post and follow of ann make no notification for ann;
    // sam's mention of fay (who follows sam) does.
    await t.app.ctx.posts.react(asAuthUser(sam), annPost._id, 'like');
    await t.app.ctx.users.follow(asAuthUser(sam), ann.username);
    await remotePost(sam, [ann.id, fay.id]);
    // (Nor is sam's comment on ann's post from before the silence shown.)
    expect((await types(ann)).filter((n) => n.endsWith(sam.username))).toEqual([]);
    expect(await types(fay)).toContain(`mention:${sam.username}`);

    await unblock();
    expect(await types(ann)).toContain(`mention:${sid.username}`);
    // sam's comment from before the silence is back; what was never made stays unmade (as for a mute).
    expect((await types(ann)).filter((n) => n.endsWith(sam.username))).toEqual([`comment:${sam.username}`]);
  });
});

describe('the client API and a silenced domain', () => {
  it('leaves them out of the tag timeline and search for those who do not follow them', async () => {
    const authors = async (api: mastodon.rest.Client) =>
      (await api.v1.timelines.tag.$select(TAG).list()).map((s) => s.account.acct).sort();
    const searched = async (api: mastodon.rest.Client) =>
      (await api.v2.search.list({ q: sam.username.split('@')[0], type: 'accounts' })).accounts.map((a) => a.acct);
    expect(await authors(annApi)).toContain(sam.username);
    expect(await searched(annApi)).toEqual([sam.username]);
    await block('silence');
    const annReads = await authors(annApi);
    expect(annReads).not.toContain(sam.username);
    expect(annReads).not.toContain(sid.username);
    expect(annReads).toContain(lou.username);
    expect(await authors(fayApi)).toContain(sam.username);
    expect(await searched(annApi)).toEqual([]);
    expect(await searched(fayApi)).toEqual([sam.username]);
    await unblock();
    expect(await authors(annApi)).toContain(sam.username);
  });
});

describe('migration 015', () => {
  it("marks the people under a silence block made before it, and no one else's", async () => {
    const quiet = await person('old.quiet.example');
    const loud = await person('old.loud.example');
    const suspended = await person('old.gone.example');
    const k = t.db.kysely;
    const now = new Date().toISOString();
    await k
      .insertInto('federation_domain_blocks')
      .values([
        { id: newId(), domain: 'quiet.example', severity: 'silence', created_at: now, updated_at: now },
        { id: newId(), domain: 'gone.example', severity: 'suspend', created_at: now, updated_at: now },
      ])
      .execute();
    await migration015.down(k as never);
    await migration015.up(k as never);
    const marked = await k
      .selectFrom('users')
      .select(['id', 'domain_silenced'])
      .where('id', 'in', [quiet.id, loud.id, suspended.id])
      .execute();
    expect(Object.fromEntries(marked.map((r) => [r.id, Number(r.domain_silenced)]))).toEqual({
      [quiet.id]: 1,
      [loud.id]: 0,
      [suspended.id]: 0,
    });
  });
});
