/**
 * `npm run demo`: adds a small, friendly dataset to the configured database for exploring the
 * app: a dozen people with avatars and banners, about 100 posts with generated pictures, tags,
 * follows, comments and reactions. Everything goes through the real API (in-process, with
 * app.inject), so uploads are processed by the media pipeline and every counter is kept by the
 * app itself. Prints the accounts to sign in with. Running it twice changes nothing.
 */
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { mediaStorageFor } from '../server/media/storageFor';
import { makePicture } from './seed/images';
import { Rng } from './seed/random';
import { commentMessage } from './seed/text';

const PASSWORD = 'demo-password';
const PEOPLE = [
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

const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_AUTH_PER_IP: '1000',
  RATE_LIMIT_AUTH_PER_ACCOUNT: '1000',
  RATE_LIMIT_WRITES_PER_USER: '100000',
  RATE_LIMIT_UPLOADS_PER_USER: '100000',
});
const db = openDatabase(config.databaseUrl);
await migrateToLatest(db.kysely);
const app = await buildApp({ config, db, storage: mediaStorageFor(config), logger: false });
const rng = new Rng(2024);
const email = (name: string) => `${name}@demo.example.com`;

async function call<T>(method: 'GET' | 'POST' | 'PATCH', url: string, cookie: string, payload?: object): Promise<T> {
  const res = await app.inject({ method, url, headers: { cookie }, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

/** multipart/form-data by hand: one `upload_preset` field and one `file`. */
async function upload(cookie: string, preset: 'avatar' | 'banner' | 'post', bytes: Buffer): Promise<string> {
  const boundary = `----demo${rng.u32().toString(16)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="upload_preset"\r\n\r\n${preset}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="demo.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`upload ${preset}: ${res.statusCode} ${res.body}`);
  return (res.json() as { secure_url: string }).secure_url;
}

async function signIn(name: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: email(name), password: PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login ${name}: ${res.statusCode} ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

async function main(): Promise<void> {
  const taken = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('email', '=', email(PEOPLE[0][0]))
    .executeTakeFirst();
  if (taken) {
    console.log('The demo accounts already exist in this database; nothing to add.');
    return printAccounts();
  }
  const started = performance.now();
  const cookies = new Map<string, string>();
  for (const [name, description] of PEOPLE) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username: name, email: email(name), password: PASSWORD },
    });
    if (res.statusCode !== 201) throw new Error(`signup ${name}: ${res.statusCode} ${res.body}`);
    const cookie = await signIn(name);
    cookies.set(name, cookie);
    const avatar = await upload(
      cookie,
      'avatar',
      await makePicture(rng, { width: 400, height: 400, style: 'rings', caption: name[0].toUpperCase() }, 'png'),
    );
    const banner = await upload(
      cookie,
      'banner',
      await makePicture(rng, { width: 1500, height: 500, style: 'waves', caption: `@${name}` }, 'png'),
    );
    await call('PATCH', '/api/users/updateProfile', cookie, { email: email(name), avatar, banner, description });
    process.stdout.write(`  ${name}`);
  }
  console.log();

  const names = PEOPLE.map(([name]) => name);
  // Everyone follows four to eight others, so every home feed has something in it.
  for (const name of names) {
    const others = rng.shuffle(names.filter((n) => n !== name)).slice(0, 4 + rng.int(5));
    for (const other of others) await call('PATCH', `/api/users/${other}/follow`, cookies.get(name)!, {});
  }

  const postIds: string[] = [];
  const styles = ['shapes', 'waves', 'rings'] as const;
  for (let i = 0; i < 100; i++) {
    const name = names[rng.int(names.length)];
    const cookie = cookies.get(name)!;
    const [width, height] = rng.pick([
      [1600, 1200],
      [1200, 1600],
      [1400, 1400],
      [1800, 1000],
    ] as const);
    const image = await upload(
      cookie,
      'post',
      await makePicture(rng, { width, height, style: styles[i % 3], caption: rng.pick(CAPTIONS) }),
    );
    const tags = rng.shuffle([...TAGS]).slice(0, 1 + rng.int(3));
    const post = await call<{ _id: string }>('POST', '/api/posts/create', cookie, {
      message: rng.pick(MESSAGES),
      image,
      tags,
    });
    postIds.push(post._id);
    if (i % 10 === 9) process.stdout.write(`  ${i + 1} posts`);
  }
  console.log();

  let reactions = 0;
  let comments = 0;
  for (const id of postIds) {
    for (const name of rng.shuffle([...names]).slice(0, rng.int(7))) {
      await call('PATCH', `/api/posts/${id}/${rng.next() < 0.85 ? 'like' : 'dislike'}`, cookies.get(name)!, {});
      reactions++;
    }
    for (let c = rng.int(4); c > 0; c--) {
      const comment = await call<{ commentId: string }>(
        'POST',
        `/api/posts/${id}/comments`,
        cookies.get(rng.pick(names))!,
        { message: commentMessage(rng) },
      );
      comments++;
      if (rng.next() < 0.4) {
        await call('PATCH', `/api/posts/${id}/comments/like`, cookies.get(rng.pick(names))!, {
          commentId: comment.commentId,
        });
      }
    }
  }
  console.log(
    `Demo data added in ${((performance.now() - started) / 1000).toFixed(1)}s: ${names.length} people, ${postIds.length} posts, ${reactions} reactions, ${comments} comments.`,
  );
  await printAccounts();
}

async function printAccounts(): Promise<void> {
  console.log(
    `\nSign in at http://${config.host}:${config.port} (after \`npm start\`) with any of these, password "${PASSWORD}":`,
  );
  for (const [name] of PEOPLE) console.log(`  ${email(name).padEnd(32)} @${name}`);
}

try {
  await main();
} finally {
  await app.close();
  await db.close();
}
