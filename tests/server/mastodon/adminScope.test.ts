/**
 * An admin's app (issue 68, item 37): a token with `write:statuses` deletes its owner's own posts
 * and comments (and comments on their own posts), but deleting anyone else's needs `admin:write`
 * too, which `write` does not cover (Mastodon's admin scopes stand apart).
 */
import { createOAuthAPIClient, type mastodon } from 'masto';
import { createPost } from '../factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from '../helpers';
import { REDIRECT_URI, consentCode, listenOn, pkce, registerApp } from './oauthFlow';

let t: TestApp;
let url: string;
let admin: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  url = await listenOn(t);
  admin = await signIn(t.app);
  bob = await signIn(t.app);
  await makeAdmin(t, admin);
});
afterAll(async () => t?.close());

async function tokenFor(user: SignedInUser, scope: string): Promise<string> {
  const client = await registerApp(url, 'read write admin:read admin:write');
  const { verifier, challenge } = pkce();
  const code = await consentCode(url, user, client, { scope, challenge });
  const token = await createOAuthAPIClient({ url }).token.create({
    grantType: 'authorization_code',
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUri: REDIRECT_URI,
    code,
    codeVerifier: verifier,
  } as Parameters<mastodon.oauth.Client['token']['create']>[0]);
  return token.accessToken;
}

const deleteStatus = (token: string, id: string) =>
  fetch(`${url}/api/v1/statuses/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });

const comment = async (user: SignedInUser, postId: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comments`,
    headers: user.headers,
    payload: { message: 'A comment' },
  });
  return (res.json() as { commentId: string }).commentId;
};

describe("deleting someone else's status through the client API", () => {
  it('an admin token with write:statuses only: 403, the post and the comment stay', async () => {
    const token = await tokenFor(admin, 'read write');
    const post = await createPost(t.app, bob);
    const refused = await deleteStatus(token, post._id);
    expect(refused.status).toBe(403);
    const commentId = await comment(bob, post._id);
    expect((await deleteStatus(token, commentId)).status).toBe(403);
    const still = await t.app.inject({ method: 'GET', url: `/api/posts/${post._id}`, headers: bob.headers });
    expect(still.statusCode).toBe(200);
  });

  it('with admin:write too: deleted', async () => {
    const token = await tokenFor(admin, 'read write admin:write');
    const post = await createPost(t.app, bob);
    const commentId = await comment(bob, post._id);
    expect((await deleteStatus(token, commentId)).status).toBe(200);
    expect((await deleteStatus(token, post._id)).status).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: `/api/posts/${post._id}`, headers: bob.headers });
    expect(gone.statusCode).toBe(404);
  });

  it('their own post, and a comment on their own post, need no admin scope', async () => {
    const token = await tokenFor(admin, 'read write');
    const own = await createPost(t.app, admin);
    const onOwn = await comment(bob, own._id);
    expect((await deleteStatus(token, onOwn)).status).toBe(200);
    expect((await deleteStatus(token, own._id)).status).toBe(200);
  });

  it('admin:write does not make a person who is not an admin one', async () => {
    const token = await tokenFor(bob, 'read write admin:write');
    const post = await createPost(t.app, admin);
    expect((await deleteStatus(token, post._id)).status).toBe(403);
  });
});
