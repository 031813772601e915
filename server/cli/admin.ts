/** `npm run admin -- grant <username>` / `revoke <username>`: changes a user's role. */
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { usersRepository } from '../users/repository';

const [command, username] = process.argv.slice(2);
if ((command !== 'grant' && command !== 'revoke') || !username) {
  console.error('Usage: npm run admin -- grant <username>   (or: revoke <username>)');
  process.exit(2);
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
  }
} finally {
  await db.close();
}
