/**
 * Deleted local accounts (issue 32, items 3 and 6). Their rows go, but other servers still hold
 * their actor URI: it answers 410 with a `Tombstone` (as does WebFinger for the name until someone
 * takes it again), and their followers elsewhere are sent `Delete(Person)`. The keys and the
 * followers' inboxes vanish with the account, so they are read first (`farewellOf`) and the
 * activity, signed with those keys, is queued once the deletion is committed.
 */
import type { Context } from '@fedify/fedify';
import { Delete, PUBLIC_COLLECTION, type Recipient } from '@fedify/vocab';

/** What a `Delete(Person)` needs once the account is gone: whom to tell, signed with which keys. */
export interface Farewell {
  userId: string;
  keys: { keyId: URL; privateKey: CryptoKey }[];
  recipients: Recipient[];
}

/** Read before the deletion: null when nobody elsewhere follows the person. */
export async function farewellOf(
  ctx: Context<void>,
  remoteFollowersOf: (
    userId: string,
  ) => Promise<{ actor_uri: string; inbox_uri: string; shared_inbox_uri: string | null }[]>,
  userId: string,
): Promise<Farewell | null> {
  const rows = await remoteFollowersOf(userId);
  if (rows.length === 0) return null;
  const keys = (await ctx.getActorKeyPairs(userId)).map(({ keyId, privateKey }) => ({ keyId, privateKey }));
  const recipients = rows.map((row) => ({
    id: new URL(row.actor_uri),
    inboxId: new URL(row.inbox_uri),
    endpoints: row.shared_inbox_uri ? { sharedInbox: new URL(row.shared_inbox_uri) } : null,
  }));
  return { userId, keys, recipients };
}

/** Queues `Delete(Person)` to the followers read before the deletion. */
export async function sendFarewell(ctx: Context<void>, farewell: Farewell): Promise<void> {
  const actor = ctx.getActorUri(farewell.userId);
  const activity = new Delete({
    id: new URL(`${actor.href}#delete`),
    actor,
    object: actor,
    to: PUBLIC_COLLECTION,
  });
  await ctx.sendActivity(farewell.keys, farewell.recipients, activity, { preferSharedInbox: true });
}
