import { invalidateOnEvents } from '../../server/invalidation/table';
import { domainEvents } from '../../server/events/domainEvents';
import { localBus } from '../../server/instance/bus';

describe('domain events', () => {
  it('reach every listener on the bus, the publisher’s own at once, and messages that are not events are dropped', () => {
    const warnings: unknown[] = [];
    const bus = localBus({ warn: (obj) => warnings.push(obj) });
    const one = domainEvents(bus);
    const two = domainEvents(bus); // another instance on the same bus
    const heard: string[] = [];
    two.subscribe((event) => heard.push(event.type));
    for (const junk of [null, 'x', 42, {}, { type: 'NoSuchEvent' }, { type: 7 }]) bus.publish('events', junk);
    one.publish({ type: 'PostReacted', postId: 'p1', userId: 'u1', reaction: 'like' });
    expect(heard).toEqual(['PostReacted']);
    expect(warnings).toEqual([]);
  });

  it('reach an own-events listener only from the process that published them, after the bus listeners', () => {
    const bus = localBus({ warn: () => {} });
    const one = domainEvents(bus);
    const two = domainEvents(bus); // another instance on the same bus
    const heard: string[] = [];
    one.subscribe(() => heard.push('bus'));
    one.subscribeOwn((event) => heard.push(`own ${event.type}`));
    one.subscribeOwn(() => {
      throw new Error('a broken listener');
    });
    two.publish({ type: 'UserRenamed', userId: 'u2' });
    one.publish({ type: 'UserRenamed', userId: 'u1' });
    expect(heard).toEqual(['bus', 'bus', 'own UserRenamed']);
  });

  it('make the caches forget through the table, and a listener that throws stops no other', () => {
    const warnings: unknown[] = [];
    const events = domainEvents(localBus({ warn: (obj) => warnings.push(obj) }));
    const forgot: string[] = [];
    const note =
      (cache: string) =>
      (...args: unknown[]) =>
        forgot.push(`${cache}(${args.filter((a) => a !== undefined).join(',')})`);
    const rows = {
      changed: note('changed'),
      reacted: note('reacted'),
      added: note('addedTo'),
      addedWhere: note('addedWhere'),
      removed: note('removed'),
      listsChanged: note('lists'),
      usersChanged: note('users'),
    };
    events.subscribe(() => {
      throw new Error('a broken listener');
    });
    invalidateOnEvents(events, {
      posts: rows,
      comments: rows,
      hiddenPeople: { forget: note('hidden'), forgetAll: note('everyonesHidden') },
      commentsByPerson: { forget: note('commentsBy') },
      followRequests: { forget: note('requests'), forgetAll: note('everyonesRequests') },
      savedPosts: { forget: note('saved') },
      followedTags: {
        forget: note('tagsOf'),
        added: note('tagHeads'),
        tagsChanged: note('everyTagHead'),
        followsAnyOf: () => () => undefined,
      },
      trends: { forget: note('trends') },
      homeFeed: {
        postAdded: note('added'),
        postRemoved: note('removedFromIndex'),
        showsNewPostOf: () => () => undefined,
        followsChanged: note('follows'),
        everyonesFollowsChanged: note('everyonesFollows'),
      },
      sessions: { forgetSession: note('session'), forgetUser: note('sessionsOf') },
      domainBlocks: { forget: note('domains') },
      authors: { forget: note('author'), forgetAll: note('authors') },
    });
    events.publish({ type: 'PostReacted', postId: 'p1', userId: 'u1', reaction: 'like' });
    events.publish({ type: 'SessionsRevoked', userId: 'u1', keptSessionId: 's1' });
    expect(forgot).toEqual(['reacted(p1,u1,like)', 'sessionsOf(u1,s1)']);
    expect(warnings).toHaveLength(2);
  });
});
