/** `npm run admin -- grant <username>` / `revoke <username>`: changes a user's role. */
import { Redis } from 'ioredis';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { domainEvents } from '../events/domainEvents';
import { redisBus } from '../instance/bus';
import { usersRepository } from '../users/repository';

const [command, username] = process.argv.slice(2);
if ((command !== 'grant' && command !== 'revoke') || !username) {
  console.error('Usage: npm run admin -- grant <username>   (or: revoke <username>)');
  process.exit(2);
}

/** The running instances hear of it: they look the user's sessions up again, and see the new role at once. */
async function publishRoleChanged(redisUrl: string, userId: string, commandTimeout: number): Promise<void> {
  // Bounded as the app's connection is: a hung Redis must not hold the command (the role is saved;
  // the instances' session caches then see it within SESSION_CACHE_MS).
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout });
  const bus = redisBus(redis, { warn: (obj, message) => console.warn(message ?? '', obj) });
  domainEvents(bus).publish({ type: 'UserRoleChanged', userId });
  await bus.close();
  // QUIT is answered after the PUBLISH sent before it.
  await redis.quit().catch(() => redis.disconnect());
}

const config = loadConfig();
const db = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(db.kysely);
  const users = usersRepository(db.kysely);
  const user = await users.findUserByUsername(username);
  if (!user) {
    console.error(`No user named ${username}`);
    process.exitCode = 1;
  } else {
    const role = command === 'grant' ? 'admin' : 'member';
    await users.updateUser(user.id, { role, updated_at: new Date().toISOString() });
    console.log(`${user.username} is now ${role === 'admin' ? 'an admin' : 'a member'}.`);
    if (config.redisUrl) await publishRoleChanged(config.redisUrl, user.id, config.redisCommandTimeoutMs);
  }
} finally {
  await db.close();
}
