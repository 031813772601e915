import { Fragment } from 'react';
import { links } from '../../lib/pages';
import { normalizeTag, tagKey } from '../../lib/tags';
import { isTagHashtag, mentionKey, splitText } from '../../lib/textEntities';
import { AppLink } from './AppLink';

interface MentionTextProps {
  text: string;
  /** The names the server found to exist (a post's or comment's `mentions`); any other `@name` stays text. */
  mentions: readonly string[] | undefined;
  /**
   * A post's tags: its `#hashtags` among them are links to their tag's page, the others stay text.
   * Absent (a comment, which has no tags): every hashtag that can be a tag is a link.
   */
  tags?: readonly string[];
}

/**
 * A message with each `@username` of someone who exists as a link to their profile, and its
 * `#hashtags` as links to their tag's page, by the rule the server writes them (lib/textEntities).
 */
export function MentionText({ text, mentions, tags }: MentionTextProps) {
  const parts = splitText(text);
  if (parts.every((part) => 'text' in part)) return text;
  // Usernames are unique ignoring case; the link uses the name as stored. `@ann@` this site's host
  // is stored as `ann`: a mention with a host that names nobody kept falls back to its local name.
  const known = new Map((mentions ?? []).map((name) => [mentionKey(name), name]));
  const tagged = tags && new Set(tags.map(tagKey));
  return parts.map((part, i) => {
    if ('text' in part) return <Fragment key={i}>{part.text}</Fragment>;
    if ('hashtag' in part) {
      const key = tagKey(normalizeTag(part.hashtag));
      if (tagged ? !tagged.has(key) : !isTagHashtag(part.hashtag)) return <Fragment key={i}>#{part.hashtag}</Fragment>;
      return (
        <AppLink key={i} href={links.tagged([key])} className="hashtag">
          #{part.hashtag}
        </AppLink>
      );
    }
    const stored = known.get(part.key) ?? (part.key.includes('@') ? known.get(part.key.split('@')[0]) : undefined);
    if (!stored) return <Fragment key={i}>@{part.mention}</Fragment>;
    return (
      <AppLink key={i} href={links.profile(stored)} className="mention">
        @{part.mention}
      </AppLink>
    );
  });
}
