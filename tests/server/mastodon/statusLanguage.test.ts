/**
 * Issue 75: a status's `language` is its author's (`users.language`), null when they chose none;
 * `language` given to POST /api/v1/statuses is taken without a refusal, whatever it is. Through masto.
 */
import { type TestApp, createTestApp } from '../helpers';
import { type ClientUser, clientUser, clientsOn, postStatus, uploadPhoto } from './oauthFlow';

let t: TestApp;
let url: string;
let alice: ClientUser;
let bob: ClientUser;
beforeAll(async () => {
  t = await createTestApp();
  ({
    url,
    users: [alice, bob],
  } = await clientsOn(t, 2));
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/users/updateProfile',
    headers: alice.headers,
    payload: { language: 'es' },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe("a status's language", () => {
  it("is its author's on every read: the status, a timeline, a thread, a notification", async () => {
    const status = await postStatus(alice.api, 'Hola #idiomas');
    expect(status.language).toBe('es');
    expect((await bob.api.v1.statuses.$select(status.id).fetch()).language).toBe('es');
    const listed = (await bob.api.v1.timelines.tag.$select('idiomas').list()).find((s) => s.id === status.id);
    expect(listed?.language).toBe('es');

    const reply = await bob.api.v1.statuses.create({ status: 'Hello back', inReplyToId: status.id });
    expect(reply.language).toBeNull();
    const own = await alice.api.v1.statuses.create({ status: 'Gracias', inReplyToId: status.id });
    expect(own.language).toBe('es');
    const { descendants } = await bob.api.v1.statuses.$select(status.id).context.fetch();
    expect(descendants.map((s) => [s.id, s.language])).toEqual([
      [reply.id, null],
      [own.id, 'es'],
    ]);
    const notification = (await alice.api.v1.notifications.list()).find((n) => n.status?.id === reply.id);
    expect(notification?.status?.language).toBeNull();
  });

  it('follows a change of the setting, in a timeline read before too', async () => {
    const status = await postStatus(bob.api, 'Before and after #cambio');
    const read = async () =>
      (await alice.api.v1.timelines.tag.$select('cambio').list()).find((s) => s.id === status.id)?.language;
    expect(await read()).toBeNull();
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: bob.headers,
      payload: { language: 'ja' },
    });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await read()).toBe('ja'));
    expect((await alice.api.v1.statuses.$select(status.id).fetch()).language).toBe('ja');
  });

  it("takes any language a client sends, and the status keeps its author's", async () => {
    for (const language of ['de', 'klingon', '']) {
      const media = await uploadPhoto(alice.api, 'A card');
      const status = await alice.api.v1.statuses.create({ status: 'Idioma #idiomas', mediaIds: [media.id], language });
      expect(status.language).toBe('es');
    }
  });

  it("is the posting default of the author's preferences and credentials", async () => {
    expect((await alice.api.v1.preferences.fetch())['posting:default:language']).toBe('es');
    expect((await alice.api.v1.accounts.verifyCredentials()).source.language).toBe('es');
    const fresh = await clientUser(t, url);
    expect((await fresh.api.v1.preferences.fetch())['posting:default:language']).toBeNull();
    expect((await fresh.api.v1.accounts.verifyCredentials()).source.language).toBeNull();
  });

  it('is no part of the site API profile', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/users/${alice.username}`, headers: bob.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).not.toHaveProperty('language');
  });
});
