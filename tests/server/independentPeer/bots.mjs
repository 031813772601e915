// The independent peer's bots config (activitypub-bot's `--bots-config-file`): one account, `peer`,
// activitypub-bot's own FollowBackBot (a follow is accepted and followed back; an unfollow is
// unfollowed back), which also answers a mention through its BotContext as the shipped OKBot does:
// a reply (`sendReply`), and a like of the note (`likeObject`); and, as Mastodon does with a `Move`
// of someone it follows (activitypub-bot itself does nothing with one), follows the target
// (`followActor`). Which of its calls to make is ours;
// what goes over the wire (addressing, signatures, delivery) is activitypub-bot's.
import { FollowBackBot } from '@evanp/activitypub-bot';

export const REPLY = 'Thanks for the mention';

const MOVE = 'https://www.w3.org/ns/activitystreams#Move';

class PeerBot extends FollowBackBot {
  // Its own handler has no case for `Move`: a bot's `handleActivity` sees every activity first.
  async handleActivity(activity) {
    if (activity.type !== MOVE) return false;
    const target = activity.target?.first;
    if (!target?.id) return true;
    await this._context.setData(`moved:${activity.actor?.first?.id}`, target.id);
    await this._context.followActor(target);
    return true;
  }

  async onMention(object) {
    const key = `answered:${object.id}`;
    if (await this._context.hasData(key)) return;
    await this._context.setData(key, true);
    await this._context.sendReply(REPLY, object);
    await this._context.likeObject(object);
  }
}

export default {
  peer: new PeerBot('peer', { fullname: 'Peer', description: 'activitypub-bot, federating with Posts in its tests' }),
};
