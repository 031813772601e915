/**
 * Albums through the Mastodon client API (issue 71), driven by `masto` as an app drives it: a status
 * takes up to `MAX_POST_IMAGES` uploads (`media_ids`, 4 in this file), answers them in order as
 * `media_attachments`, and an edit reorders, removes, adds and describes them; the instance says
 * the limit as `max_media_attachments`.
 */
import type { mastodon } from 'masto';
import { type TestApp, createTestApp } from '../helpers';
import { type ClientUser, clientsOn, refusal, uploadPhoto } from './oauthFlow';

let t: TestApp;
let alice: ClientUser;
let bob: ClientUser;
beforeAll(async () => {
  t = await createTestApp({ MAX_POST_IMAGES: '4' });
  ({
    users: [alice, bob],
  } = await clientsOn(t, 2, 'read write'));
});
afterAll(async () => {
  await t.close();
});

const descriptions = (status: mastodon.v1.Status) => status.mediaAttachments.map((media) => media.description);

describe('albums through the client API', () => {
  it('says the limit as max_media_attachments in v1 and v2', async () => {
    expect((await alice.api.v1.instance.fetch()).configuration.statuses.maxMediaAttachments).toBe(4);
    expect((await alice.api.v2.instance.fetch()).configuration.statuses.maxMediaAttachments).toBe(4);
  });

  it('a status of several uploads answers them in order, and reads the same', async () => {
    const media = [
      await uploadPhoto(alice.api, 'First'),
      await uploadPhoto(alice.api),
      await uploadPhoto(alice.api, 'Third'),
    ];
    const status = await alice.api.v1.statuses.create({ status: 'Three #album', mediaIds: media.map((m) => m.id) });
    expect(descriptions(status)).toEqual(['First', null, 'Third']);
    expect(new Set(status.mediaAttachments.map((m) => m.id)).size).toBe(3);
    for (const attachment of status.mediaAttachments) {
      expect(attachment).toMatchObject({ type: 'image', meta: { original: { width: 32, height: 32 } } });
      expect(attachment.blurhash).toMatch(/^L/);
    }
    const read = await alice.api.v1.statuses.$select(status.id).fetch();
    expect(read.mediaAttachments).toEqual(status.mediaAttachments);
    // The site's own API lists the same photos.
    const post = await t.app.inject({ method: 'GET', url: `/api/posts/${status.id}`, headers: alice.headers });
    expect(post.json().images.map((photo: { alt: string }) => photo.alt)).toEqual(['First', '', 'Third']);
  });

  it('refuses more uploads than the limit, and an upload of someone else (422)', async () => {
    const media = [];
    for (let i = 0; i < 5; i++) media.push(await uploadPhoto(alice.api));
    const tooMany = await refusal(
      alice.api.v1.statuses.create({ status: 'Five #many', mediaIds: media.map((m) => m.id) }),
    );
    expect(tooMany).toEqual({ status: 422, message: 'Validation failed: A post holds at most 4 photos' });
    const bobs = await uploadPhoto(bob.api);
    const foreign = await refusal(
      alice.api.v1.statuses.create({ status: 'Not mine #nope', mediaIds: [media[0].id, bobs.id] }),
    );
    expect(foreign.status).toBe(422);
  });

  it('refuses one photo named twice in media_ids with 422, on create and on edit, changing nothing', async () => {
    const TWICE = { status: 422, message: 'Validation failed: media_ids names the same photo twice' };
    const [a, b] = [await uploadPhoto(alice.api, 'A'), await uploadPhoto(alice.api, 'B')];
    const before = await alice.api.v1.accounts.$select(alice.id).statuses.list();
    expect(
      await refusal(alice.api.v1.statuses.create({ status: 'Twice #twice', mediaIds: [a.id, b.id, a.id] })),
    ).toEqual(TWICE);
    expect(await alice.api.v1.accounts.$select(alice.id).statuses.list()).toEqual(before);

    const status = await alice.api.v1.statuses.create({ status: 'Once #twice', mediaIds: [a.id, b.id] });
    const [first, second] = status.mediaAttachments;
    const edit = (mediaIds: string[]) =>
      refusal(alice.api.v1.statuses.$select(status.id).update({ status: 'Edited #twice', mediaIds }));
    expect(await edit([first.id, second.id, first.id])).toEqual(TWICE);
    // The first photo by its attachment's id and again by its upload's.
    expect(await edit([first.id, second.id, a.id])).toEqual(TWICE);
    const read = await alice.api.v1.statuses.$select(status.id).fetch();
    expect(read.mediaAttachments).toEqual(status.mediaAttachments);
    expect(read.content).toBe(status.content);
  });

  it('an edit reorders, removes and adds photos by media_ids and describes them by media_attributes', async () => {
    const media = [
      await uploadPhoto(alice.api, 'A'),
      await uploadPhoto(alice.api, 'B'),
      await uploadPhoto(alice.api, 'C'),
    ];
    const status = await alice.api.v1.statuses.create({ status: 'Edit me #edits', mediaIds: media.map((m) => m.id) });
    const [a, b, c] = status.mediaAttachments;
    const added = await uploadPhoto(alice.api, 'D');

    const edited = await alice.api.v1.statuses.$select(status.id).update({
      status: 'Edited #edits',
      mediaIds: [c.id, a.id, added.id],
      mediaAttributes: [{ id: a.id, description: 'A, described again' }],
    });
    expect(descriptions(edited)).toEqual(['C', 'A, described again', 'D']);
    expect(edited.mediaAttachments.map((m) => m.url)).toEqual([c.url, a.url, edited.mediaAttachments[2].url]);
    expect(edited.mediaAttachments.map((m) => m.url)).not.toContain(b.url);

    // Without media_ids the photos stay; media_attributes alone describes them.
    const described = await alice.api.v1.statuses.$select(status.id).update({
      status: 'Edited again #edits',
      mediaAttributes: [{ id: edited.mediaAttachments[2].id, description: 'D, described' }],
    });
    expect(descriptions(described)).toEqual(['C', 'A, described again', 'D, described']);

    expect(
      (await refusal(alice.api.v1.statuses.$select(status.id).update({ status: 'None #edits', mediaIds: [] }))).status,
    ).toBe(422);
    expect(descriptions(await alice.api.v1.statuses.$select(status.id).fetch())).toEqual([
      'C',
      'A, described again',
      'D, described',
    ]);
  });
});
