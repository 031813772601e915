/**
 * A note from elsewhere notifies at most as many people as a local text does (issue 68, item 36):
 * the first `MENTIONS_PER_MESSAGE_MAX` it names, however many `Mention` tags it carries (up to 50
 * were notified).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MENTIONS_PER_MESSAGE_MAX } from '../../lib/limits';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../fixtures/pngsuite/png/basn2c08.png'));

let t: TestApp;
let local: string;
let remote: RemoteServer;
let people: SignedInUser[];

beforeAll(async () => {
  remote = await startRemoteServer(['zoe'], { files: { '/files/photo.png': { type: 'image/png', body: PNG } } });
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  people = [];
  for (let i = 0; i < MENTIONS_PER_MESSAGE_MAX + 5; i++) people.push(await signIn(t.app, { username: `person${i}` }));
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const mentionNotifications = async () =>
  (await t.db.kysely.selectFrom('notifications').select('user_id').where('type', '=', 'mention').execute()).map(
    (row) => row.user_id,
  );

describe('a note from elsewhere naming more people than a text may notify', () => {
  it(`notifies the first ${MENTIONS_PER_MESSAGE_MAX} it names, in its order`, async () => {
    const actor = remote.actorUri('zoe');
    const note = `${remote.origin}/notes/many`;
    const response = await remote.signedPost('zoe', `${local}/inbox`, {
      id: `${note}/activity`,
      type: 'Create',
      actor,
      object: {
        id: note,
        type: 'Note',
        attributedTo: actor,
        to: ['https://www.w3.org/ns/activitystreams#Public'],
        content: `<p>${people.map((p) => `@${p.username}`).join(' ')}</p>`,
        attachment: [{ type: 'Document', mediaType: 'image/png', url: `${remote.origin}/files/photo.png` }],
        tag: people.map((p) => ({ type: 'Mention', href: `${local}/users/${p.id}`, name: `@${p.username}` })),
      },
    });
    expect(response.status).toBe(202);
    await until(async () => (await mentionNotifications()).length > 0);
    const notified = await mentionNotifications();
    expect(notified.sort()).toEqual(
      people
        .slice(0, MENTIONS_PER_MESSAGE_MAX)
        .map((p) => p.id)
        .sort(),
    );
  });
});
