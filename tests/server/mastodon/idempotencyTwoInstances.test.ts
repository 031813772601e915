/**
 * `Idempotency-Key` behind a balancer (issue 33): two instances on one database sharing Redis. An
 * app's retry that reaches the other instance, during the first call or after it, answers the
 * status the first call made, and no second post is made; a refused call frees the key.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type mastodon } from 'masto';
import { type TestApp, createTestApp, signIn } from '../helpers';
import { clientFor, listenOn, userToken } from './oauthFlow';

const PNG = path.resolve(import.meta.dirname, '../../fixtures/pngsuite/png/basn2c08.png');

describe.runIf(process.env.TEST_REDIS_URL)('Idempotency-Key with two instances sharing Redis', () => {
  let one: TestApp;
  let two: TestApp;
  let viaOne: mastodon.rest.Client;
  let viaTwo: mastodon.rest.Client;
  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL! };
    one = await createTestApp(env);
    two = await createTestApp(env, { sameDatabaseAs: one });
    const urlOne = await listenOn(one);
    const urlTwo = await listenOn(two);
    const token = await userToken(urlOne, await signIn(one.app));
    viaOne = clientFor(urlOne, token);
    viaTwo = clientFor(urlTwo, token);
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  const upload = async () =>
    viaOne.v2.media.create({ file: new Blob([await readFile(PNG)], { type: 'image/png' }), description: 'A card' });
  const create = (api: mastodon.rest.Client, key: string, params: mastodon.rest.v1.CreateStatusParams) =>
    api.v1.statuses.create(params, { requestInit: { headers: { 'Idempotency-Key': key } } });
  const tagged = async (tag: string) => (await viaOne.v1.timelines.tag.$select(tag).list()).map((s) => s.id);

  it('answers a retry on the other instance, during the first call or after it, with the first status', async () => {
    const media = await upload();
    const params = { status: 'Sent twice #balanced', mediaIds: [media.id] };
    const [first, second] = await Promise.all([create(viaOne, 'retry-a', params), create(viaTwo, 'retry-a', params)]);
    expect(second.id).toBe(first.id);
    // The same status, each instance writing its own addresses into it.
    expect(second.content).toContain('Sent twice');
    expect(second.tags.map((t) => t.name)).toEqual(['balanced']);
    expect((await create(viaTwo, 'retry-a', params)).id).toBe(first.id);
    expect(await tagged('balanced')).toEqual([first.id]);
  });

  it('frees the key when the first call is refused: the retry on the other instance makes the status', async () => {
    await expect(create(viaOne, 'retry-b', { status: 'No picture #freed' })).rejects.toMatchObject({
      statusCode: 422,
    });
    const media = await upload();
    const made = await create(viaTwo, 'retry-b', { status: 'With a picture #freed', mediaIds: [media.id] });
    expect(await tagged('freed')).toEqual([made.id]);
    expect((await create(viaOne, 'retry-b', { status: 'Again #freed', mediaIds: [media.id] })).id).toBe(made.id);
  });
});
