/**
 * Reports of people, posts and comments from elsewhere (issue 32: "Reports can target remote
 * posts, comments and people"): filed like any report, shown in the admin queue with the person's
 * `name@host`, and resolved the same way (the post or comment removed here, the person suspended
 * here). Zoe is on another server (a small Fedify one on loopback) and sends her post and comment
 * as a real server would.
 */
import type { AdminLogEntry, Report } from '../../lib/types';
import { createPost, remoteUserRow } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

let t: TestApp;
let local: string;
let remote: RemoteServer;
let admin: SignedInUser;
let ann: SignedInUser;
let zoe: string;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe']);
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true', RATE_LIMIT_REPORTS_PER_USER: '1000' });
  await t.app.listen({ host: '127.0.0.1', port });
  admin = await signIn(t.app);
  await makeAdmin(t, admin);
  ann = await signIn(t.app, { username: 'ann' });
  zoe = `zoe@${remote.host}`;
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const inject = (user: SignedInUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
const report = (payload: object) => inject(ann, 'POST', '/api/reports', { reason: 'abuse', ...payload });
const openQueue = async () =>
  (await inject(admin, 'GET', '/api/admin/reports?status=open&limit=40')).json() as Report[];
const resolve = (id: string, action: string) => inject(admin, 'POST', `/api/admin/reports/${id}/resolve`, { action });

/** Zoe's Note, delivered to this instance's shared inbox. */
async function zoeSays(id: string, note: Record<string, unknown>) {
  const actor = remote.actorUri('zoe');
  const res = await remote.signedPost('zoe', `${local}/inbox`, {
    id: `${remote.origin}/creates/${id}`,
    type: 'Create',
    actor,
    to: PUBLIC,
    object: { id: `${remote.origin}/notes/${id}`, type: 'Note', attributedTo: actor, to: PUBLIC, ...note },
  });
  expect(res.status).toBe(202);
  return `${remote.origin}/notes/${id}`;
}

describe('reports of people and content from elsewhere', () => {
  let postId: string;
  let commentId: string;
  let annPostId: string;

  beforeAll(async () => {
    const annUri = `${local}/users/${ann.id}`;
    // A post with an image that names Ann (so it is kept), and a comment on Ann's post.
    const postUri = await zoeSays('post', {
      content: '<p>Hello @ann</p>',
      attachment: [{ type: 'Image', mediaType: 'image/png', url: `${remote.origin}/media/1.png` }],
      tag: [{ type: 'Mention', href: annUri, name: `@ann@${new URL(local).host}` }],
    });
    annPostId = (await createPost(t.app, ann, { message: 'Ann here' }))._id;
    const commentUri = await zoeSays('comment', {
      content: '<p>Rude words</p>',
      inReplyTo: `${local}/post/${annPostId}`,
    });
    postId = (
      await until(() => t.db.kysely.selectFrom('posts').select('id').where('uri', '=', postUri).executeTakeFirst())
    ).id;
    commentId = (
      await until(() =>
        t.db.kysely.selectFrom('comments').select('id').where('uri', '=', commentUri).executeTakeFirst(),
      )
    ).id;
  });

  it('are filed (201) and shown in the queue with the name@host of their author', async () => {
    const filed = [
      await report({ targetType: 'post', targetId: postId }),
      await report({ targetType: 'comment', targetId: commentId }),
      await report({ targetType: 'user', targetId: zoe }),
    ];
    expect(filed.map((r) => [r.statusCode, r.body])).toEqual(filed.map((r) => [201, r.body]));
    const queue = await openQueue();
    const byType = (type: string) => queue.find((r) => r.targetType === type)!;
    expect(byType('post').target).toMatchObject({ type: 'post', _id: postId, creator: zoe, message: 'Hello @ann' });
    expect(byType('comment').target).toMatchObject({
      type: 'comment',
      commentId,
      postId: annPostId,
      creator: zoe,
      message: 'Rude words',
    });
    expect(byType('user').target).toMatchObject({ type: 'user', username: zoe, suspended: false });
    expect(byType('user').reporter).toBe('ann');
  });

  it('are resolved: the post and the comment removed here, the person suspended here', async () => {
    const queue = await openQueue();
    const byType = (type: string) => queue.find((r) => r.targetType === type)!;

    const comment = await resolve(byType('comment').id, 'removeContent');
    expect(comment.statusCode, comment.body).toBe(200);
    expect(comment.json()).toMatchObject({ status: 'resolved', resolution: 'removeContent', target: null });
    const annPost = await inject(ann, 'GET', `/api/posts/${annPostId}`);
    expect(annPost.json().comments).toEqual([]);
    expect(annPost.json().commentsCount).toBe(0);

    const post = await resolve(byType('post').id, 'removeContent');
    expect(post.statusCode, post.body).toBe(200);
    expect((await inject(ann, 'GET', `/api/posts/${postId}`)).statusCode).toBe(404);

    const person = await resolve(byType('user').id, 'suspendUser');
    expect(person.statusCode, person.body).toBe(200);
    expect(person.json().target).toMatchObject({ username: zoe, suspended: true });
    expect((await inject(ann, 'GET', `/api/users/${encodeURIComponent(zoe)}`)).statusCode).toBe(404);
    // Nothing of it went to her server: her post and comment are hers to delete there.
    expect(remote.delivered().filter((a) => a.type === 'Delete')).toEqual([]);

    const log = (await inject(admin, 'GET', '/api/admin/log')).json() as AdminLogEntry[];
    expect(log.slice(0, 3).map((e) => [e.action, e.targetType])).toEqual([
      ['suspendUser', 'user'],
      ['removeContent', 'post'],
      ['removeContent', 'comment'],
    ]);
    expect(log[0].target).toBe(zoe);
    expect(await openQueue()).toEqual([]);
  });

  it('a person with a long name@host is reported and suspended by that name', async () => {
    const row = remoteUserRow('a-rather-long-subdomain-name-of-a-server.social.example.org');
    await t.db.kysely.insertInto('users').values(row).execute();
    expect(row.username.length).toBeGreaterThan(64);
    const filed = await report({ targetType: 'user', targetId: row.username });
    expect(filed.statusCode, filed.body).toBe(201);
    expect((await inject(admin, 'GET', `/api/admin/users/${encodeURIComponent(row.username)}`)).statusCode).toBe(200);
    const suspended = await inject(admin, 'POST', `/api/admin/users/${encodeURIComponent(row.username)}/suspend`, {});
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toMatchObject({ username: row.username, suspendedAt: expect.any(String) });
  });
});
