/**
 * Mapping tests with `@fedify/testing` (issue 32): how a local post or comment that involves people
 * elsewhere is written as a Note: a reply to a post kept from elsewhere answers that Note and copies
 * its author; a mention of `@name@host` is a `Mention` of their actor and a link to their page.
 */
import { noteAudience } from '../../server/federation/noteAudience';
import { createFederation } from '@fedify/testing';
import { Mention, Note } from '@fedify/vocab';
import { commentNote, postNote } from '../../server/federation/objects';
import type { NoteCommentRow, NotePostRow } from '../../server/federation/repository';

const site = { url: 'https://posts.test', host: 'posts.test' };
const federation = createFederation<void>();
federation.setActorDispatcher('/users/{identifier}', () => null);
federation.setFollowersDispatcher('/users/{identifier}/followers', () => null);
federation.setObjectDispatcher(Note, '/post/{id}', () => null);
const ctx = federation.createContext(new URL(site.url), undefined);

const bob = {
  id: '01a219e8-0000-7000-8000-00000000b0b0',
  username: 'bob@example.social',
  actor_uri: 'https://example.social/users/bob',
  url: 'https://example.social/@bob',
};
const now = '2026-11-26T12:00:00.000Z';

describe('Notes that involve people elsewhere', () => {
  it('a comment on a post from elsewhere replies to its Note and copies its author', async () => {
    const comment = {
      id: '01a219e8-0000-7000-8000-0000000000c1',
      post_id: '01a219e8-0000-7000-8000-0000000000b1',
      user_id: '01a219e8-0000-7000-8000-0000000000a1',
      message: 'Lovely!',
      created_at: now,
      post_creator_id: bob.id,
      post_uri: 'https://example.social/users/bob/statuses/1',
      post_creator_actor_uri: bob.actor_uri,
      post_audience: 'public',
    } as unknown as NoteCommentRow;
    const note = commentNote(ctx, site, comment, []);
    expect(note.replyTargetId?.href).toBe('https://example.social/users/bob/statuses/1');
    expect(note.ccIds.map((u) => u.href)).toContain(bob.actor_uri);
    expect(note.ccIds.map((u) => u.href)).not.toContain(`${site.url}/users/${bob.id}`);
    const json = (await note.toJsonLd()) as Record<string, unknown>;
    expect(json.inReplyTo).toBe('https://example.social/users/bob/statuses/1');
  });

  it('a post that mentions @name@host tags their actor and links their page', async () => {
    const post = {
      id: '01a219e8-0000-7000-8000-0000000000a2',
      creator_id: '01a219e8-0000-7000-8000-0000000000a1',
      message: 'Look, @bob@example.social!',
      tags: JSON.stringify(['look']),
      sensitive: 0,
      spoiler: '',
      alt: '',
      created_at: now,
      updated_at: now,
      audience: 'public',
    } as unknown as NotePostRow;
    const image = { url: '/media/post/x/1080.jpg', mediaType: 'image/jpeg', width: 1080, height: 810, alt: '' };
    const note = postNote(ctx, site, post, [image], [bob]);
    const tags = [];
    for await (const tag of note.getTags()) tags.push(tag);
    const mention = tags.find((tag) => tag instanceof Mention) as Mention;
    expect(mention.href?.href).toBe(bob.actor_uri);
    expect(mention.name?.toString()).toBe('@bob@example.social');
    expect(note.ccIds.map((u) => u.href)).toContain(bob.actor_uri);
    expect(note.content?.toString()).toContain(`<a href="${bob.url}" class="u-url mention">@<span>bob</span></a>`);
  });

  it('a post is addressed by its audience as Mastodon addresses each visibility (issue 70)', () => {
    const post = (audience: string) =>
      ({
        id: '01a219e8-0000-7000-8000-0000000000a3',
        creator_id: '01a219e8-0000-7000-8000-0000000000a1',
        message: 'Hi @bob@example.social',
        tags: '["hi"]',
        sensitive: 0,
        spoiler: '',
        alt: '',
        created_at: now,
        updated_at: now,
        audience,
      }) as unknown as NotePostRow;
    const image = { url: '/media/post/x/1080.jpg', mediaType: 'image/jpeg', width: 1080, height: 810, alt: '' };
    const followers = ctx.getFollowersUri('01a219e8-0000-7000-8000-0000000000a1').href;
    const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
    const addressed = (audience: string) => {
      const note = postNote(ctx, site, post(audience), [image], [bob]);
      return { to: note.toIds.map((u) => u.href), cc: note.ccIds.map((u) => u.href) };
    };
    expect(addressed('public')).toEqual({ to: [PUBLIC], cc: [followers, bob.actor_uri] });
    expect(addressed('unlisted')).toEqual({ to: [followers], cc: [PUBLIC, bob.actor_uri] });
    expect(addressed('followers')).toEqual({ to: [followers], cc: [] });
    expect(addressed('mentioned')).toEqual({ to: [bob.actor_uri], cc: [] });
  });

  it('a Note from elsewhere keeps the audience its addressing says (issue 70)', () => {
    const PUBLIC = new URL('https://www.w3.org/ns/activitystreams#Public');
    const followers = new URL('https://example.social/users/bob/followers');
    const ann = new URL('https://example.social/users/ann');
    const of = (to: URL[], cc: URL[] = []) => noteAudience(new Note({ tos: to, ccs: cc }), [ann.href]);
    expect(of([PUBLIC], [followers])).toBe('public');
    expect(of([followers], [PUBLIC])).toBe('unlisted');
    expect(of([followers], [ann])).toBe('followers');
    expect(of([ann])).toBe('mentioned');
  });
});
