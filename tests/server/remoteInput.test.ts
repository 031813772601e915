/**
 * What other servers say about their people and notes, checked as it arrives (issue 68, item 35).
 * Names: a person whose `preferredUsername` is not a name (control characters, direction marks,
 * HTML, `@`, spaces) is not kept, so cannot act here unseen. Addresses shown or linked are http(s)
 * only: a
 * note or a person whose `url` is `javascript:` or `data:` is kept with its own address instead (as
 * the posts' `url` the client API serves and pages link), a note whose id is not http(s) is not kept,
 * and migration 022 does the same to what was kept before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as migration022 from '../../server/db/migrations/022_remote_urls_http_only';
import { Person } from '@fedify/vocab';
import { remotePersonFields } from '../../server/federation/remotePeople';
import { webUrlOf } from '../../server/federation/remoteText';
import { createPost, remoteUserRow } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../fixtures/pngsuite/png/basn2c08.png'));

let t: TestApp;
let local: string;
let remote: RemoteServer;
let ann: SignedInUser;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe'], { files: { '/files/photo.png': { type: 'image/png', body: PNG } } });
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const postUrl = async (uri: string) =>
  (await t.db.kysely.selectFrom('posts').select('url').where('uri', '=', uri).executeTakeFirst())?.url;

function note(id: string, url: string) {
  const actor = remote.actorUri('zoe');
  return {
    id: `${id}#create`,
    type: 'Create',
    actor,
    object: {
      id,
      type: 'Note',
      url,
      attributedTo: actor,
      content: '<p>Look @ann</p>',
      attachment: [{ type: 'Document', mediaType: 'image/png', url: `${remote.origin}/files/photo.png` }],
      tag: [{ type: 'Mention', href: `${local}/users/${ann.id}`, name: '@ann' }],
    },
  };
}

describe('a name from elsewhere', () => {
  const person = (preferredUsername: string, url = 'https://a.example/@x') =>
    remotePersonFields(
      new Person({
        id: new URL('https://A.Example./users/1'),
        inbox: new URL('https://a.example/users/1/inbox'),
        preferredUsername,
        url: new URL(url),
      }),
    );

  it('is kept when a mention could name it: 1 character, dots and dashes inside, in one host form', () => {
    for (const name of ['z', 'ok', 'dash-name', 'first.last', 'under_score', 'Zoe'])
      expect(person(name)).toMatchObject({ username: `${name}@a.example`, domain: 'a.example' });
  });

  it('is not kept when it is not a name', () => {
    for (const name of [
      'a\u0000b',
      'a\nb',
      '\u202eevil',
      'x\u200fy',
      '<b>x</b>',
      'a@b',
      'two words',
      '',
      '.dot',
      'ann-',
    ])
      expect([name, person(name)]).toEqual([name, null]);
  });

  it("a person's javascript: url is kept as their actor's address", () => {
    expect(person('zoe', 'javascript:alert(1)')?.url).toBe('https://a.example./users/1');
  });
});

describe('an address from elsewhere', () => {
  it('is http(s) or nothing', () => {
    expect(webUrlOf('https://a.example/@zoe')).toBe('https://a.example/@zoe');
    expect(webUrlOf('HTTP://a.example/')).toBe('HTTP://a.example/');
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>',
      'file:///etc/passwd',
      'nope',
      '',
      null,
    ])
      expect(webUrlOf(bad)).toBeNull();
  });

  it("a note's javascript: url is kept as its own address; the client API serves that", async () => {
    const id = `${remote.origin}/notes/js`;
    expect(
      (await remote.signedPost('zoe', `${local}/inbox`, note(id, 'javascript:alert(document.cookie)'))).status,
    ).toBe(202);
    await until(() => postUrl(id));
    expect(await postUrl(id)).toBe(id);
  });

  it('migration 022 puts what was kept before right', async () => {
    const person = remoteUserRow('old.example');
    await t.db.kysely
      .insertInto('users')
      .values({ ...person, url: 'javascript:alert(1)' })
      .execute();
    const odd = { ...remoteUserRow('odd.example'), actor_uri: 'data:,x', url: 'data:text/html,x' };
    await t.db.kysely.insertInto('users').values(odd).execute();
    const post = await createPost(t.app, ann, { message: 'kept before' });
    await t.db.kysely
      .updateTable('posts')
      .set({ uri: 'https://old.example/notes/1', url: 'JAVASCRIPT:alert(1)' })
      .where('id', '=', post._id)
      .execute();
    await migration022.up(t.db.kysely as never);
    const urlOf = async (id: string) =>
      (await t.db.kysely.selectFrom('users').select('url').where('id', '=', id).executeTakeFirstOrThrow()).url;
    expect(await urlOf(person.id)).toBe(person.actor_uri);
    expect(await urlOf(odd.id)).toBeNull();
    expect(await postUrl('https://old.example/notes/1')).toBe('https://old.example/notes/1');
  });
});
