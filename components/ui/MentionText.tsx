import { Fragment } from 'react';
import { splitMentions } from '../../lib/mentions';
import { links } from '../../lib/pages';
import { AppLink } from './AppLink';

interface MentionTextProps {
  text: string;
  /** The names the server found to exist (a post's or comment's `mentions`); any other `@name` stays text. */
  mentions: readonly string[] | undefined;
}

/** A message with each `@username` of someone who exists as a link to their profile. */
export function MentionText({ text, mentions }: MentionTextProps) {
  if (!mentions || mentions.length === 0) return text;
  // Usernames are unique ignoring case; the link uses the name as stored.
  const known = new Map(mentions.map((name) => [name.toLowerCase(), name]));
  return splitMentions(text).map((part, i) => {
    if (!('mention' in part)) return <Fragment key={i}>{part.text}</Fragment>;
    const stored = known.get(part.mention.toLowerCase());
    if (!stored) return <Fragment key={i}>@{part.mention}</Fragment>;
    return (
      <AppLink key={i} href={links.profile(stored)} className="mention">
        @{part.mention}
      </AppLink>
    );
  });
}
