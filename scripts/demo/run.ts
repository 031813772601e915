/**
 * The demo dataset (`npm run demo`): a dozen people with avatars and banners, about 100 posts with
 * generated pictures, tags, follows, comments and reactions, all made through the real API.
 *
 * Every choice comes from a generator seeded by the person's or the post's number, and each step
 * first reads what the database already holds: a run cut short (a crash, Ctrl-C, a server that kept
 * answering 503) is finished by the next one, and a run over a finished demo adds nothing.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../server/db/database';
import { makePicture } from '../seed/images';
import { Rng } from '../seed/random';
import { commentMessage } from '../seed/text';
import { type Answer, politely, type RetryOptions } from './politely';

export const PASSWORD = 'demo-password';
export const PEOPLE = [
  ['ada', 'Counting machines and sunsets.'],
  ['grace', 'Debugging by the sea.'],
  ['alan', 'Long runs, longer thoughts.'],
  ['hedy', 'Inventing things between takes.'],
  ['linus', 'Penguins and pastries.'],
  ['margaret', 'To the moon, with checklists.'],
  ['tim', 'Hyperlinks and hiking boots.'],
  ['barbara', 'Abstract data, concrete coffee.'],
  ['ken', 'Small tools that do one thing.'],
  ['radia', 'Trees, spanning and otherwise.'],
  ['katherine', 'Trajectories and teatime.'],
  ['dennis', 'Pointers to good places.'],
] as const;
const TAGS = [
  'Sunset',
  'coffee',
  'hiking',
  'cats',
  'design',
  'music',
  'travel',
  'food',
  'CityLife',
  'nature',
  'art',
  'books',
];
const CAPTIONS = [
  'Golden hour',
  'Morning brew',
  'Trail day',
  'Nap time',
  'New sketch',
  'On repeat',
  'Far away',
  'Dinner',
  'Downtown',
  'Green',
  'Studio',
  'Reading',
  'Weekend',
  'Hello!',
  'Blue',
  'Waves',
];
const MESSAGES = [
  'Caught this on the way home.',
  'First try at this, what do you think?',
  'Could look at this all day.',
  'A little something I made this morning.',
  'Weekend mood.',
  'Found this spot by accident, coming back for sure.',
  'Colours are unreal today.',
  'This one is for everyone who asked.',
  'Simple things.',
  'Not bad for a Tuesday.',
];

export const demoEmail = (name: string) => `${name}@demo.example.com`;

/** One generator per person or post, per kind of choice: a rerun makes the same choices for it. */
const rngFor = (kind: 'person' | 'follows' | 'post' | 'activity', n: number) =>
  new Rng(2024 + n * 8 + ['person', 'follows', 'post', 'activity'].indexOf(kind));

/** What the demo reads of an answer (light-my-request's). */
export type DemoAnswer = Answer & Pick<LightMyRequestResponse, 'body' | 'json' | 'cookies'>;

export interface DemoOptions {
  /** The app's request function (app.inject), or a stand-in for it. */
  inject: (options: InjectOptions) => Promise<DemoAnswer>;
  db: Db;
  /** Where people sign in (the configuration's `siteUrl`: `PUBLIC_URL`, else `HOST`:`PORT`). */
  siteUrl: string;
  say: (line: string) => void;
  /** How many of the dozen people, and how many posts (tests make a smaller demo). */
  people?: number;
  posts?: number;
  retry?: RetryOptions;
}

export interface DemoAdded {
  people: number;
  follows: number;
  posts: number;
  reactions: number;
  comments: number;
}

export async function runDemo(options: DemoOptions): Promise<DemoAdded> {
  const { db, say } = options;
  const people = PEOPLE.slice(0, options.people ?? PEOPLE.length);
  const names = people.map(([name]) => name);
  const postCount = options.posts ?? 100;
  const added: DemoAdded = { people: 0, follows: 0, posts: 0, reactions: 0, comments: 0 };
  const started = performance.now();

  const send = (request: InjectOptions) =>
    politely(() => options.inject(request), {
      onRetry: (status, ms) => say(`  (answered ${status}: trying again in ${(ms / 1000).toFixed(1)} s)`),
      ...options.retry,
    });
  const call = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, cookie: string, payload?: object) => {
    const res = await send({ method, url, headers: { cookie }, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };

  /** multipart/form-data by hand: one `upload_preset` field and one `file`. */
  const upload = async (cookie: string, preset: 'avatar' | 'banner' | 'post', bytes: Buffer) => {
    const boundary = `----demo${Math.random().toString(16).slice(2)}`;
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="upload_preset"\r\n\r\n${preset}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="demo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await send({
      method: 'POST',
      url: '/api/uploads',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    if (res.statusCode !== 201) throw new Error(`upload ${preset}: ${res.statusCode} ${res.body}`);
    return (res.json() as { secure_url: string }).secure_url;
  };

  const signIn = async (name: string) => {
    const res = await send({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: demoEmail(name), password: PASSWORD },
    });
    if (res.statusCode !== 200) throw new Error(`login ${name}: ${res.statusCode} ${res.body}`);
    return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  };

  // People: an account, then its avatar, banner and description (an account without an avatar is unfinished).
  const ids = new Map<string, string>();
  const cookies = new Map<string, string>();
  const account = (name: string) =>
    db.kysely.selectFrom('users').select(['id', 'avatar']).where('email', '=', demoEmail(name)).executeTakeFirst();
  for (const [n, [name, description]] of people.entries()) {
    let user = await account(name);
    if (!user) {
      const res = await send({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { username: name, email: demoEmail(name), password: PASSWORD },
      });
      if (res.statusCode !== 201) throw new Error(`signup ${name}: ${res.statusCode} ${res.body}`);
      user = (await account(name))!;
      added.people += 1;
    }
    ids.set(name, user.id);
    const cookie = await signIn(name);
    cookies.set(name, cookie);
    if (!user.avatar) {
      const rng = rngFor('person', n);
      const caption = name[0].toUpperCase();
      const avatar = await upload(
        cookie,
        'avatar',
        await makePicture(rng, { width: 400, height: 400, style: 'rings', caption }, 'png'),
      );
      const banner = await upload(
        cookie,
        'banner',
        await makePicture(rng, { width: 1500, height: 500, style: 'waves', caption: `@${name}` }, 'png'),
      );
      await call('PATCH', '/api/users/updateProfile', cookie, { email: demoEmail(name), avatar, banner, description });
      say(`  ${name}`);
    }
  }

  // Everyone follows four to eight others, so every home feed has something in it.
  for (const [n, name] of names.entries()) {
    const followed = new Set(
      (
        await db.kysely.selectFrom('follows').select('followee_id').where('follower_id', '=', ids.get(name)!).execute()
      ).map((row) => row.followee_id),
    );
    const rng = rngFor('follows', n);
    const others = rng.shuffle(names.filter((other) => other !== name)).slice(0, 4 + rng.int(5));
    for (const other of others) {
      if (followed.has(ids.get(other)!)) continue;
      await call('PATCH', `/api/users/${other}/follow`, cookies.get(name)!, {});
      added.follows += 1;
    }
  }

  // Posts: the demo's posts so far, oldest first; the missing ones are made in order.
  const demoPosts = async () =>
    (
      await db.kysely
        .selectFrom('posts')
        .select('id')
        .where('creator_id', 'in', [...ids.values()])
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((row) => row.id);
  const styles = ['shapes', 'waves', 'rings'] as const;
  for (let i = (await demoPosts()).length; i < postCount; i += 1) {
    const rng = rngFor('post', i);
    const name = names[rng.int(names.length)];
    const [width, height] = rng.pick([
      [1600, 1200],
      [1200, 1600],
      [1400, 1400],
      [1800, 1000],
    ] as const);
    const cookie = cookies.get(name)!;
    const picture = await makePicture(rng, { width, height, style: styles[i % 3], caption: rng.pick(CAPTIONS) });
    const image = await upload(cookie, 'post', picture);
    const tags = rng.shuffle([...TAGS]).slice(0, 1 + rng.int(3));
    await call('POST', '/api/posts/create', cookie, { message: rng.pick(MESSAGES), image, tags });
    added.posts += 1;
    if ((i + 1) % 10 === 0) say(`  ${i + 1} posts`);
  }

  // Reactions and comments: each post's are planned from its number; those already there are kept.
  for (const [i, id] of (await demoPosts()).slice(0, postCount).entries()) {
    const rng = rngFor('activity', i);
    const reacted = new Set(
      (await db.kysely.selectFrom('post_reactions').select('user_id').where('post_id', '=', id).execute()).map(
        (row) => row.user_id,
      ),
    );
    for (const name of rng.shuffle([...names]).slice(0, rng.int(7))) {
      const kind = rng.next() < 0.85 ? 'like' : 'dislike';
      // Pressing a reaction again takes it back: only those not there yet are pressed.
      if (reacted.has(ids.get(name)!)) continue;
      await call('PATCH', `/api/posts/${id}/${kind}`, cookies.get(name)!, {});
      added.reactions += 1;
    }
    const planned = Array.from({ length: rng.int(4) }, () => ({
      author: rng.pick(names),
      message: commentMessage(rng),
      likedBy: rng.next() < 0.4 ? rng.pick(names) : null,
    }));
    const { count } = await db.kysely
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('post_id', '=', id)
      .executeTakeFirstOrThrow();
    for (const comment of planned.slice(Number(count))) {
      const { commentId } = await call<{ commentId: string }>(
        'POST',
        `/api/posts/${id}/comments`,
        cookies.get(comment.author)!,
        { message: comment.message },
      );
      added.comments += 1;
      if (comment.likedBy)
        await call('PATCH', `/api/posts/${id}/comments/like`, cookies.get(comment.likedBy)!, { commentId });
    }
  }

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  say(
    Object.values(added).some((n) => n > 0)
      ? `Demo data added in ${seconds}s: ${added.people} people, ${added.follows} follows, ${added.posts} posts, ${added.reactions} reactions, ${added.comments} comments.`
      : 'The demo is complete in this database; nothing to add.',
  );
  say(`\nSign in at ${options.siteUrl} (after \`npm start\`) with any of these, password "${PASSWORD}":`);
  for (const name of names) say(`  ${demoEmail(name).padEnd(32)} @${name}`);
  return added;
}
