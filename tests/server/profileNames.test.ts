/**
 * Display names and profile links (issue 68, item 32): saved from `updateProfile`, checked on the
 * server, shown on profiles, posts and comments, verified in the background when the linked page
 * links back with `rel="me"` (fetched through the guarded fetch: loopback allowed here by
 * `FEDERATION_ALLOW_PRIVATE`), and sent out on the actor.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Person, PropertyValue } from '@fedify/vocab';
import type { Comment, Post, Profile, User } from '../../lib/types';
import { remotePersonFields } from '../../server/federation/remotePeople';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, readUntil, signIn } from './helpers';

const SITE = 'http://posts.test';
let t: TestApp;
let pages: Server;
let pagesOrigin: string;
/** What the little web server answers at each path. */
const served = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: SITE, FEDERATION_ALLOW_PRIVATE: 'true' });
  pages = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not here');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => pages.close(resolve));
  await t.close();
});

const inject = (user: SignedInUser, method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
const update = (user: SignedInUser, payload: object) => inject(user, 'PATCH', '/api/users/updateProfile', payload);
const profileOf = async (viewer: SignedInUser, username: string) =>
  (await inject(viewer, 'GET', `/api/users/${username}`)).json().user as Profile;

describe('display name', () => {
  it('is saved trimmed and shown on the profile, posts and comments; empty falls back to none', async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, ann);
    await inject(ann, 'POST', `/api/posts/${post._id}/comments`, { message: 'mine' });
    // Read once before the change: the kept profile, post and comments must not answer the old name.
    expect((await profileOf(bob, ann.username)).displayName).toBeNull();
    expect((await inject(bob, 'GET', `/api/posts/${post._id}`)).json().creatorName).toBeUndefined();

    const saved = await update(ann, { displayName: '  Ann <b>Lee</b> 🌷  ' });
    expect(saved.statusCode).toBe(200);
    expect((saved.json().user as User).displayName).toBe('Ann <b>Lee</b> 🌷');
    expect((await profileOf(bob, ann.username)).displayName).toBe('Ann <b>Lee</b> 🌷');
    expect(((await inject(bob, 'GET', `/api/posts/${post._id}`)).json() as Post).creatorName).toBe('Ann <b>Lee</b> 🌷');
    const list = (await inject(bob, 'GET', `/api/users/${ann.username}/posts`)).json() as Post[];
    expect(list[0].creatorName).toBe('Ann <b>Lee</b> 🌷');
    const comments = (await inject(bob, 'GET', `/api/posts/${post._id}/comments`)).json() as Comment[];
    expect(comments[0].creatorName).toBe('Ann <b>Lee</b> 🌷');

    for (const none of ['   ', null]) {
      const cleared = await update(ann, { displayName: none });
      expect((cleared.json().user as User).displayName).toBeNull();
    }
    expect((await profileOf(bob, ann.username)).displayName).toBeNull();
    expect((await inject(bob, 'GET', `/api/posts/${post._id}`)).json().creatorName).toBeUndefined();
  });

  it('refuses names too long, with control, invisible or direction characters, or not text, with a 400', async () => {
    const ann = await signIn(t.app);
    const cases: [unknown, string][] = [
      ['x'.repeat(31), 'Display name must be at most 30 characters'],
      ['evil\u202enimda', 'Display name must not contain invisible or text-direction characters'],
      ['a\u200bb', 'Display name must not contain invisible or text-direction characters'],
    ];
    for (const [displayName, message] of cases) {
      const res = await update(ann, { displayName });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidDisplayName', message });
    }
    // Control characters are refused before (every field: `http/controlCharacters.ts`).
    expect((await update(ann, { displayName: 'a\u0007b' })).statusCode).toBe(400);
    expect((await update(ann, { displayName: 'x'.repeat(30) })).statusCode).toBe(200);
  });
});

describe('profile links', () => {
  it('are saved trimmed, empty ones dropped, and refused past four or without a label or value', async () => {
    const ann = await signIn(t.app);
    const saved = await update(ann, {
      fields: [
        { name: ' Site ', value: ' https://ann.example ' },
        { name: '', value: '' },
        { name: 'Pronouns', value: 'she/her' },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect((saved.json().user as User).fields).toEqual([
      { name: 'Site', value: 'https://ann.example', verifiedAt: null },
      { name: 'Pronouns', value: 'she/her', verifiedAt: null },
    ]);
    const five = Array.from({ length: 5 }, (_, i) => ({ name: `n${i}`, value: `v${i}` }));
    const refusals: [unknown, string][] = [
      [five, 'At most 4 profile links'],
      [[{ name: '', value: 'x' }], 'Profile link 1 needs a label'],
      [
        [
          { name: 'a', value: 'b' },
          { name: 'x', value: '' },
        ],
        'Profile link 2 needs a value',
      ],
      [[{ name: 'x'.repeat(256), value: 'b' }], "Profile link 1's label must be at most 255 characters"],
      [[{ name: 'a', value: 'x'.repeat(2048) }], "Profile link 1's value must be at most 2047 characters"],
      [[{ name: 'a', value: 'b\u202e' }], 'Profile link 1 must not contain invisible or text-direction characters'],
      [[{ name: 'a' }], 'Profile links must be a list of { name, value } texts'],
    ];
    for (const [fields, message] of refusals) {
      const res = await update(ann, { fields });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await profileOf(ann, ann.username)).fields).toHaveLength(2);
    expect((await update(ann, { fields: [] })).json().user.fields).toEqual([]);
  });

  it('is verified when its page links back with rel="me", and not when it does not', async () => {
    const ann = await signIn(t.app);
    const profile = `${SITE}/profile/${ann.username}`;
    served.set(
      `/${ann.username}/back`,
      `<html><body><p>Me: <a class="x" rel="nofollow me" href="${profile}">Posts</a></p></body></html>`,
    );
    served.set(`/${ann.username}/head`, `<html><head><link href='${profile}/' rel=me></head></html>`);
    served.set(
      `/${ann.username}/not`,
      `<!-- <a rel="me" href="${profile}"> --><script>"<a rel='me' href='${profile}'>"</script>` +
        `<a href="${profile}">no rel</a><a rel="me" href="${profile}x">another</a>`,
    );
    const res = await update(ann, {
      fields: [
        { name: 'Not', value: `${pagesOrigin}/${ann.username}/not` },
        { name: 'Missing', value: `${pagesOrigin}/${ann.username}/missing` },
        { name: 'Back', value: `${pagesOrigin}/${ann.username}/back` },
        { name: 'Head', value: `${pagesOrigin}/${ann.username}/head` },
      ],
    });
    expect(res.statusCode).toBe(200);
    // Links are checked in order: once the last is verified, the others' checks are over.
    const fields = (
      await readUntil(
        () => profileOf(ann, ann.username),
        (p) => p.fields[3].verifiedAt !== null,
      )
    ).fields;
    expect(fields.map((f) => [f.name, f.verifiedAt !== null])).toEqual([
      ['Not', false],
      ['Missing', false],
      ['Back', true],
      ['Head', true],
    ]);

    // Kept while the value stays; a changed value is not verified until checked again.
    const kept = await update(ann, {
      fields: [
        { name: 'Renamed', value: `${pagesOrigin}/${ann.username}/back` },
        { name: 'Other', value: `${pagesOrigin}/${ann.username}/not` },
      ],
    });
    expect((kept.json().user as User).fields.map((f) => f.verifiedAt !== null)).toEqual([true, false]);
  });

  it('are sent out on the actor as PropertyValues, with the display name as its name', async () => {
    const ann = await signIn(t.app);
    await update(ann, {
      displayName: 'Ann & co',
      fields: [
        { name: 'Site', value: 'https://ann.example/<x>' },
        { name: 'Note', value: 'a <b>bold</b> claim' },
      ],
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/users/${ann.id}`,
      headers: { accept: 'application/activity+json' },
    });
    expect(res.statusCode).toBe(200);
    const actor = res.json();
    expect(actor.name).toBe('Ann & co');
    expect(actor.attachment).toEqual([
      {
        type: 'PropertyValue',
        name: 'Site',
        value:
          '<a href="https://ann.example/%3Cx%3E" target="_blank" rel="nofollow noopener noreferrer me" translate="no">https://ann.example/&lt;x&gt;</a>',
      },
      { type: 'PropertyValue', name: 'Note', value: 'a &lt;b&gt;bold&lt;/b&gt; claim' },
    ]);
  });
});

describe("a remote actor's name", () => {
  const actor = (name: string | null) =>
    new Person({
      id: new URL('https://far.example/users/zoe'),
      inbox: new URL('https://far.example/users/zoe/inbox'),
      preferredUsername: 'zoe',
      name,
      attachments: [new PropertyValue({ name: 'x', value: 'y' })],
    });

  it('is kept cleaned of controls, direction overrides and invisibles, bounded, or none', () => {
    expect(remotePersonFields(actor('  Zoë\u202e \u0000 the\u200b   Great  '))?.display_name).toBe('Zoë the Great');
    expect(remotePersonFields(actor('z'.repeat(300)))?.display_name).toHaveLength(100);
    expect(remotePersonFields(actor('\u202e\u200b '))?.display_name).toBeNull();
    expect(remotePersonFields(actor(null))?.display_name).toBeNull();
  });

  it('is none when it only repeats the username (servers send that when a person set no name)', () => {
    expect(remotePersonFields(actor('zoe'))?.display_name).toBeNull();
    expect(remotePersonFields(actor('Zoe'))?.display_name).toBeNull();
    expect(remotePersonFields(actor(' zoe\u200b '))?.display_name).toBeNull();
    expect(remotePersonFields(actor('Zoe K'))?.display_name).toBe('Zoe K');
  });
});
