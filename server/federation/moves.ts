/**
 * `Move` out (issue 76): a local person moved to another account; their followers elsewhere are
 * told, as Mastodon tells them (actor and object the old account, target the new one), and follow
 * the new account themselves. Their followers here were carried over by `moving/service.ts`.
 */
import type { Context } from '@fedify/fedify';
import { Move } from '@fedify/vocab';
import { newId } from '../domain/ids';

type FollowerRow = { actor_uri: string; inbox_uri: string; shared_inbox_uri: string | null };

export async function sendMove(
  ctx: Context<void>,
  remoteFollowersOf: (userId: string) => Promise<FollowerRow[]>,
  userId: string,
  targetUri: string,
): Promise<void> {
  const rows = await remoteFollowersOf(userId);
  if (rows.length === 0) return;
  const actor = ctx.getActorUri(userId);
  const move = new Move({
    id: new URL(`${actor.href}#moves/${newId()}`),
    actor,
    object: actor,
    target: new URL(targetUri),
    to: ctx.getFollowersUri(userId),
  });
  const recipients = rows.map((row) => ({
    id: new URL(row.actor_uri),
    inboxId: new URL(row.inbox_uri),
    endpoints: row.shared_inbox_uri ? { sharedInbox: new URL(row.shared_inbox_uri) } : null,
  }));
  await ctx.sendActivity({ identifier: userId }, recipients, move, { preferSharedInbox: true });
}
