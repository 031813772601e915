/**
 * The Mastodon client API (issue 33) driven as an app drives it: the `masto` client library over
 * HTTP against the running app, each person signed in through the OAuth code flow with PKCE.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { blurhashOfThumbhash } from '../../../server/media/blurhash';
import { type TestApp, createTestApp } from '../helpers';
import { type ClientUser, PHOTO_PNG, clientsOn, postStatus, refusal, uploadPhoto } from './oauthFlow';

let t: TestApp;
let url: string;
let alice: ClientUser;
let bob: ClientUser;
beforeAll(async () => {
  t = await createTestApp();
  ({
    url,
    users: [alice, bob],
  } = await clientsOn(t, 2, 'read write follow'));
});
afterAll(async () => {
  await t.close();
});

describe('instance', () => {
  it('describes the server in v1 and v2', async () => {
    const v1 = await alice.api.v1.instance.fetch();
    expect(v1.version).toBe('4.3.0 (compatible; Posts 0.1.0)');
    expect(v1.urls.streamingApi).toBe(url.replace('http', 'ws'));
    expect(v1.configuration.statuses).toMatchObject({ maxCharacters: 255, maxMediaAttachments: 10 });
    const v2 = await alice.api.v2.instance.fetch();
    expect(v2).toMatchObject({ title: 'Posts', version: '4.3.0 (compatible; Posts 0.1.0)' });
    expect(v2.configuration.statuses.maxCharacters).toBe(255);
  });

  it('tolerates a trailing slash', async () => {
    const res = await fetch(`${url}/api/v1/instance/`);
    expect(res.status).toBe(200);
  });
});

describe('accounts', () => {
  it('verify_credentials, by id and by name', async () => {
    const me = await alice.api.v1.accounts.verifyCredentials();
    expect(me).toMatchObject({ id: alice.id, username: alice.username, acct: alice.username, statusesCount: 0 });
    expect(me.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(me.source.privacy).toBe('public');
    // No avatar: a picture the site serves (the app's icon, from public/), not a missing favicon.
    for (const picture of [me.avatar, me.avatarStatic, (await alice.api.v2.instance.fetch()).thumbnail.url]) {
      const file = await readFile(path.join(import.meta.dirname, '../../../public', new URL(picture).pathname));
      expect(file.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(await bob.api.v1.accounts.$select(alice.id).fetch()).toMatchObject({
      id: alice.id,
      username: alice.username,
    });
    expect(await bob.api.v1.accounts.lookup({ acct: alice.username })).toMatchObject({ id: alice.id });
    expect((await refusal(bob.api.v1.accounts.$select('0190a0a0-0000-7000-8000-000000000000').fetch())).status).toBe(
      404,
    );
  });
});

describe('posting and reading', () => {
  it('uploads an image with alt text, and GET/PUT media/:id answer it', async () => {
    const media = await uploadPhoto(alice.api, 'Two cats on a sofa');
    expect(media).toMatchObject({ type: 'image', description: 'Two cats on a sofa' });
    expect(media.meta?.original).toMatchObject({ width: 32, height: 32 });
    // Full addresses: an app has no base to resolve a path against.
    expect(media.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\//);
    expect(media.previewUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/.*\.webp$/);
    // The placeholder Mastodon apps draw: derived from the upload's thumbhash.
    const { thumbhash } = await t.db.kysely
      .selectFrom('media')
      .select('thumbhash')
      .where('id', '=', media.id)
      .executeTakeFirstOrThrow();
    expect(media.blurhash).toMatch(/^L.{27}$/);
    expect(media.blurhash).toBe(blurhashOfThumbhash(thumbhash));
    expect(await alice.api.v1.media.$select(media.id).fetch()).toMatchObject({ id: media.id, url: media.url });
    const changed = await alice.api.v1.media.$select(media.id).update({ description: 'Three cats' });
    expect(changed.description).toBe('Three cats');
    // Someone else's upload is nobody's business.
    expect((await refusal(bob.api.v1.media.$select(media.id).fetch())).status).toBe(404);
  });

  it('posts a status with one image and #tags: a post', async () => {
    const media = await uploadPhoto(alice.api, 'Sunset over the bay');
    const status = await alice.api.v1.statuses.create({
      status: 'Evening walk #sunset #Bay',
      mediaIds: [media.id],
      spoilerText: 'bright',
      sensitive: true,
    });
    expect(status).toMatchObject({
      account: { id: alice.id },
      inReplyToId: null,
      sensitive: true,
      spoilerText: 'bright',
      favouritesCount: 0,
      visibility: 'public',
    });
    expect(status.tags.map((tag) => tag.name)).toEqual(['sunset', 'Bay']);
    expect(status.mediaAttachments).toHaveLength(1);
    expect(status.mediaAttachments[0]).toMatchObject({
      type: 'image',
      description: 'Sunset over the bay',
      url: media.url,
      blurhash: media.blurhash,
    });
    expect(status.mediaAttachments[0].blurhash).toMatch(/^L/);
    expect(status.content).toContain('class="mention hashtag"');
    // The same post on the site's own API.
    const same = await t.app.inject({ method: 'GET', url: `/api/posts/${status.id}`, headers: alice.headers });
    expect(same.json()).toMatchObject({
      _id: status.id,
      tags: ['sunset', 'Bay'],
      alt: 'Sunset over the bay',
      sensitive: true,
    });
  });

  it('honours Idempotency-Key: a retried create answers the first status, no second post', async () => {
    const media = await uploadPhoto(alice.api);
    const send = () =>
      alice.api.v1.statuses.create(
        { status: 'Only once #retry', mediaIds: [media.id] },
        { requestInit: { headers: { 'Idempotency-Key': 'retry-1' } } },
      );
    const [first, second] = await Promise.all([send(), send()]);
    expect(second.id).toBe(first.id);
    expect((await send()).id).toBe(first.id);
    const tagged = await alice.api.v1.timelines.tag.$select('retry').list();
    expect(tagged.map((s) => s.id)).toEqual([first.id]);
  });

  it('refuses a status without an image and without in_reply_to_id (422)', async () => {
    const refused = await refusal(alice.api.v1.statuses.create({ status: 'Just words #nope' }));
    expect(refused.status).toBe(422);
    expect(refused.message).toContain('one image or more');
  });

  it('follows, pages the home timeline through Link, favourites, comments, reads the context, deletes', async () => {
    const relationship = await bob.api.v1.accounts.$select(alice.id).follow();
    expect(relationship).toMatchObject({ id: alice.id, following: true });
    const [rel] = await alice.api.v1.accounts.relationships.fetch({ id: [bob.id] });
    expect(rel).toMatchObject({ followedBy: true, following: false });

    const posted = [];
    for (const n of [1, 2, 3]) posted.push(await postStatus(alice.api, `Picture ${n} #series`));
    const seen: string[] = [];
    let pages = 0;
    for await (const page of bob.api.v1.timelines.home.list({ limit: 2 })) {
      pages += 1;
      seen.push(...page.map((s) => s.id));
      if (pages > 10) break;
    }
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(seen.slice(0, 3)).toEqual(posted.map((s) => s.id).reverse());

    const linked = await fetch(`${url}/api/v1/timelines/home?limit=1`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(linked.headers.get('link')).toMatch(/<[^>]+max_id=[^>]+>; rel="next"/);

    const target = posted[2];
    const favourited = await bob.api.v1.statuses.$select(target.id).favourite();
    expect(favourited).toMatchObject({ favourited: true, favouritesCount: 1 });
    // Twice is still once (the site's like toggles; the client API's favourite does not).
    expect(await bob.api.v1.statuses.$select(target.id).favourite()).toMatchObject({ favouritesCount: 1 });

    const comment = await bob.api.v1.statuses.create({ status: 'Lovely light', inReplyToId: target.id });
    expect(comment).toMatchObject({ inReplyToId: target.id, inReplyToAccountId: alice.id, account: { id: bob.id } });
    const context = await alice.api.v1.statuses.$select(target.id).context.fetch();
    expect(context.ancestors).toEqual([]);
    expect(context.descendants.map((s) => s.id)).toEqual([comment.id]);
    expect(context.descendants[0].content).toContain('Lovely light');

    const notifications = await alice.api.v1.notifications.list();
    const kinds = notifications.map((n) => n.type);
    expect(kinds).toEqual(expect.arrayContaining(['follow', 'favourite', 'mention']));
    const favourite = notifications.find((n) => n.type === 'favourite')!;
    expect(favourite).toMatchObject({ account: { id: bob.id }, status: { id: target.id } });
    const mention = notifications.find((n) => n.type === 'mention')!;
    expect(mention.status).toMatchObject({ id: comment.id, inReplyToId: target.id });

    expect(await bob.api.v1.statuses.$select(target.id).unfavourite()).toMatchObject({
      favourited: false,
      favouritesCount: 0,
    });

    const tagged = await bob.api.v1.timelines.tag.$select('series').list();
    expect(tagged.map((s) => s.id)).toEqual(posted.map((s) => s.id).reverse());
    const local = await bob.api.v1.timelines.public.list({ local: true, limit: 40 });
    expect(local.map((s) => s.id)).toEqual(expect.arrayContaining(posted.map((s) => s.id)));
    const byAlice = await bob.api.v1.accounts.$select(alice.id).statuses.list();
    expect(byAlice.map((s) => s.id)).toEqual(expect.arrayContaining(posted.map((s) => s.id)));

    expect((await refusal(bob.api.v1.statuses.$select(target.id).remove())).status).toBe(403);
    const removed = await alice.api.v1.statuses.$select(target.id).remove();
    expect(removed.id).toBe(target.id);
    expect((await refusal(alice.api.v1.statuses.$select(target.id).fetch())).status).toBe(404);

    const followers = await alice.api.v1.accounts.$select(alice.id).followers.list();
    expect(followers.map((a) => a.id)).toEqual([bob.id]);
    expect(await bob.api.v1.accounts.$select(alice.id).unfollow()).toMatchObject({ following: false });
  });

  it('since_id keeps what is newer', async () => {
    const first = await postStatus(alice.api, 'Older #paging');
    const second = await postStatus(alice.api, 'Newer #paging');
    const newer = await bob.api.v1.timelines.tag.$select('paging').list({ sinceId: first.id });
    expect(newer.map((s) => s.id)).toEqual([second.id]);
  });
});

describe('blocks and mutes', () => {
  it('blocks and mutes through relationships', async () => {
    expect(await alice.api.v1.accounts.$select(bob.id).mute()).toMatchObject({ muting: true });
    expect(await alice.api.v1.accounts.$select(bob.id).unmute()).toMatchObject({ muting: false });
    expect(await alice.api.v1.accounts.$select(bob.id).block()).toMatchObject({ blocking: true });
    expect(await alice.api.v1.accounts.$select(bob.id).unblock()).toMatchObject({ blocking: false });
  });
});

describe('the rest an app reads', () => {
  it('searches people, a hashtag and its statuses', async () => {
    const status = await postStatus(alice.api, 'Found me #findable');
    const people = await bob.api.v2.search.list({ q: alice.username.slice(0, 6), type: 'accounts' });
    expect(people.accounts.map((a) => a.id)).toContain(alice.id);
    const tags = await bob.api.v2.search.list({ q: '#findable' });
    expect(tags.hashtags.map((h) => h.name)).toEqual(['findable']);
    expect(tags.statuses.map((s) => s.id)).toEqual([status.id]);
    expect(tags.accounts).toEqual([]);
  });

  it('edits a status: new text, new tags', async () => {
    const status = await postStatus(alice.api, 'First words #draft');
    const edited = await alice.api.v1.statuses.$select(status.id).update({ status: 'Better words #final' });
    expect(edited.tags.map((t) => t.name)).toEqual(['final']);
    expect(edited.editedAt).not.toBeNull();
    expect((await refusal(bob.api.v1.statuses.$select(status.id).update({ status: 'mine now #x' }))).status).toBe(403);
  });

  it('updates the profile note and avatar', async () => {
    const avatar = new Blob([await readFile(PHOTO_PNG)], { type: 'image/png' });
    const me = await alice.api.v1.accounts.updateCredentials({ note: 'I take pictures', avatar });
    expect(me.source.note).toBe('I take pictures');
    expect(me.avatar).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/avatar\//);
    const profile = await t.app.inject({ method: 'GET', url: `/api/users/${alice.username}`, headers: bob.headers });
    expect(profile.json().user.description).toBe('I take pictures');
    expect(me.avatar).toBe(`${url}${profile.json().user.avatar}`);
  });

  it('updates the display name and profile links (issue 68, item 32), and shows them to others', async () => {
    const me = await alice.api.v1.accounts.updateCredentials({
      displayName: ' Alice <i>A</i> ',
      fieldsAttributes: [
        { name: 'Site', value: 'https://alice.example/"x"' },
        { name: 'Pronouns', value: '<she>' },
      ],
    });
    expect(me.displayName).toBe('Alice <i>A</i>');
    expect(me.source.fields).toEqual([
      { name: 'Site', value: 'https://alice.example/"x"', verifiedAt: null },
      { name: 'Pronouns', value: '<she>', verifiedAt: null },
    ]);
    const seen = await bob.api.v1.accounts.$select(alice.id).fetch();
    expect(seen.displayName).toBe('Alice <i>A</i>');
    expect(seen.fields).toEqual([
      {
        name: 'Site',
        value:
          '<a href="https://alice.example/%22x%22" target="_blank" rel="nofollow noopener noreferrer me" translate="no">https://alice.example/&quot;x&quot;</a>',
        verifiedAt: null,
      },
      { name: 'Pronouns', value: '&lt;she&gt;', verifiedAt: null },
    ]);
    const tooLong = await refusal(alice.api.v1.accounts.updateCredentials({ displayName: 'x'.repeat(31) }));
    expect(tooLong).toEqual({ status: 400, message: 'Display name must be at most 30 characters' });
    // Empty: no display name (the username shows), no links (a form cannot send an empty list: empty fields).
    const cleared = await alice.api.v1.accounts.updateCredentials({
      displayName: '',
      fieldsAttributes: [{ name: '', value: '' }],
    });
    expect(cleared.displayName).toBe(alice.username);
    expect(cleared.fields).toEqual([]);
  });

  it('answers preferences, markers, one notification, and empty emojis, filters and lists', async () => {
    expect(await alice.api.v1.preferences.fetch()).toMatchObject({ 'posting:default:visibility': 'public' });
    expect(await alice.api.v1.customEmojis.list()).toEqual([]);
    expect(await alice.api.v1.lists.list()).toEqual([]);
    expect(await alice.api.v2.filters.list()).toEqual([]);
    await bob.api.v1.accounts.$select(alice.id).follow();
    const [newest] = await alice.api.v1.notifications.list({ limit: 1 });
    expect(newest).toMatchObject({ type: 'follow', account: { id: bob.id } });
    expect(await alice.api.v1.notifications.$select(newest.id).fetch()).toMatchObject({
      id: newest.id,
      type: newest.type,
    });
    const marker = await alice.api.v1.markers.create({ notifications: { lastReadId: newest.id } });
    expect(marker.notifications?.lastReadId).toBe(newest.id);
    const unread = await t.app.inject({ method: 'GET', url: '/api/notifications/unread', headers: alice.headers });
    expect(unread.json().count).toBe(0);
  });

  it('answers unknown client API routes as { error }', async () => {
    const res = await fetch(`${url}/api/v1/trends/links`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(res.status).toBe(404);
    expect(Object.keys(await res.json())).toEqual(['error']);
  });
});
