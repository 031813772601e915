/**
 * Who may see a post (issue 70): its author picks one of four audiences. The rule itself is the
 * server's (`server/posts/audience.ts`); this is what both sides name and show.
 */
export const AUDIENCES = ['public', 'unlisted', 'followers', 'mentioned'] as const;
export type Audience = (typeof AUDIENCES)[number];

export const isAudience = (value: unknown): value is Audience =>
  typeof value === 'string' && (AUDIENCES as readonly string[]).includes(value);

/** The label and a line of what it means, as the composer, the edit dialog and a post show them. */
export const AUDIENCE_TEXTS: Record<Audience, { label: string; hint: string }> = {
  public: { label: 'Public', hint: 'Anyone, in Everyone, tags and search' },
  unlisted: { label: 'Unlisted', hint: 'Anyone with the link and your followers, not in Everyone, tags or search' },
  followers: { label: 'Followers', hint: 'Your approved followers only' },
  mentioned: { label: 'Mentioned', hint: 'Only the people you @mention' },
};

export const AUDIENCE_ERROR = `The audience must be one of ${AUDIENCES.join(', ')}`;

/** Mastodon's `visibility` for each audience, and back (the client API, ActivityPub's addressing follows it). */
export const MASTODON_VISIBILITY: Record<Audience, 'public' | 'unlisted' | 'private' | 'direct'> = {
  public: 'public',
  unlisted: 'unlisted',
  followers: 'private',
  mentioned: 'direct',
};

export const audienceOfVisibility = (visibility: unknown): Audience | undefined =>
  AUDIENCES.find((a) => MASTODON_VISIBILITY[a] === visibility);
