/**
 * Fills the configured database (DATA_DIR / DATABASE_URL, as the server reads them) with a large,
 * realistic and deterministic dataset for benchmarks:
 *
 *   npm run seed -- --users 10000 --posts 1000000 --follows 200 --likes 2000000 --comments 300000
 *
 * Those are the defaults: the reference set "D1" of docs/benchmarks.md. Other flags: --tags 500,
 * --images 8 (the shared post pictures), --seed 1, --until 2026-01-01 (newest timestamp; default:
 * today 00:00 UTC), --non-public 0.2 and --approving 0.1 (shares of posts not public and of accounts
 * approving their followers, issue 70; 0 by default), --albums 0.33 (the share of posts that are albums
 * of 2 to 10 photos, issue 71; 0 by default). Refuses a database that already has users:
 * seed a fresh DATA_DIR.
 *
 * Every seeded account's password is SEED_PASSWORD: it is hashed once with the app's argon2id
 * parameters and the hash is reused for every user (hashing 10,000 passwords would take minutes).
 */
import { count, parseFlags, share } from './seed/args';
import { writePlan, SEED_PASSWORD } from './seed/write';
import { makePlan } from './seed/plan';
import { Rng } from './seed/random';
import { loadConfig } from '../server/config';

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const sizes = {
    users: count(flags, 'users', 10_000),
    posts: count(flags, 'posts', 1_000_000),
    follows: count(flags, 'follows', 200),
    likes: count(flags, 'likes', 2_000_000),
    comments: count(flags, 'comments', 300_000),
    tags: Math.max(1, count(flags, 'tags', 500)),
  };
  const images = Math.max(1, count(flags, 'images', 8));
  const seed = count(flags, 'seed', 1);
  const today = new Date();
  const until = flags.has('until')
    ? Date.parse(flags.get('until')!)
    : Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (!Number.isFinite(until)) throw new Error('--until must be a date, e.g. 2026-01-01');

  const config = loadConfig();
  console.log(`Seeding ${config.databaseUrl.replace(/:\/\/[^@]*@/, '://***@')}`);
  console.log(
    `  ${Object.entries(sizes)
      .map(([k, v]) => `${k}=${v.toLocaleString('en-US')}`)
      .join(' ')} images=${images} seed=${seed}`,
  );
  const started = performance.now();

  const planStarted = performance.now();
  const plan = makePlan(new Rng(seed), sizes, until);
  console.log(`  planned in ${((performance.now() - planStarted) / 1000).toFixed(1)}s`);

  const privacy = {
    nonPublic: share(flags, 'non-public'),
    approving: share(flags, 'approving'),
    rng: new Rng(seed + 2),
  };
  const albums = { share: share(flags, 'albums'), rng: new Rng(seed + 3) };
  const written = await writePlan(config, plan, { rng: new Rng(seed + 1), images, privacy, albums });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `Seeded in ${seconds.toFixed(1)}s: ${Object.entries(written.rows)
      .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
      .join(', ')}`,
  );
  console.log(
    `Every seeded account signs in with its email and the password "${SEED_PASSWORD}", e.g. ${written.firstEmail}`,
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
