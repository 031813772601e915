/**
 * The one rendering of a message (a post's, a comment's, a bio) as HTML, the way Mastodon writes
 * it, for the client API's `content` and ActivityPub's `content` alike: escaped; blank lines part
 * paragraphs and single line breaks become `<br>`; the people it names linked (`h-card`); its
 * hashtags linked where they stand. The text is cut into mentions and hashtags first
 * (lib/textEntities), then each piece escaped, so an escaped apostrophe (`&#39;`) is never a hashtag.
 */
import { links } from '../../lib/pages';
import { normalizeTag, tagKey } from '../../lib/tags';
import { isTagHashtag, splitText } from '../../lib/textEntities';
import { escapeHtml } from './escapeHtml';

export interface MessageContext {
  /** The site's origin (`https://posts.example`): tag links are absolute. */
  origin: string;
  /** The address an `@name` or `@name@host` links to, by its `mentionKey`; none leaves it text. */
  mentionHref(key: string): string | undefined;
  /**
   * A post's tags: those written as hashtags are linked where they stand, the others on a last
   * line. Without (a comment, a bio), every hashtag that can be a tag is linked where it stands.
   */
  tags?: readonly string[];
}

const tagHref = (origin: string, key: string) => `${origin}${links.tagged([key])}`;

const hashtagLink = (origin: string, key: string, shown: string) =>
  `<a href="${escapeHtml(tagHref(origin, key))}" class="mention hashtag" rel="tag">#<span>${escapeHtml(shown)}</span></a>`;

/** The message as HTML paragraphs (see the module's comment). */
export function messageHtml(text: string, { origin, mentionHref, tags }: MessageContext): string {
  const tagged = tags && new Set(tags.map(tagKey));
  const inline = new Set<string>();
  const paragraphs: string[][] = [[]];
  let line = '';
  const end = (paragraph: boolean) => {
    paragraphs[paragraphs.length - 1].push(line);
    line = '';
    if (paragraph) paragraphs.push([]);
  };
  for (const part of splitText(text, { ownHost: new URL(origin).host })) {
    if ('hashtag' in part) {
      const key = tagKey(normalizeTag(part.hashtag));
      const linked = tagged ? tagged.has(key) : isTagHashtag(part.hashtag);
      if (linked) inline.add(key);
      line += linked ? hashtagLink(origin, key, part.hashtag) : escapeHtml(`#${part.hashtag}`);
    } else if ('mention' in part) {
      const href = mentionHref(part.key);
      line += href
        ? `<span class="h-card"><a href="${escapeHtml(href)}" class="u-url mention">@<span>${escapeHtml(part.mention.split('@')[0])}</span></a></span>`
        : escapeHtml(`@${part.mention}`);
    } else {
      const pieces = part.text.split(/(\r?\n)/);
      for (let i = 0; i < pieces.length; i += 1) {
        const piece = pieces[i];
        if (piece !== '\n' && piece !== '\r\n') {
          line += escapeHtml(piece);
          continue;
        }
        const blank = pieces[i + 1] === '' && (pieces[i + 2] === '\n' || pieces[i + 2] === '\r\n');
        end(blank);
        if (blank) i += 2;
      }
    }
  }
  end(false);
  const others = (tags ?? []).filter((tag) => !inline.has(tagKey(tag)));
  if (others.length > 0)
    paragraphs.push([others.map((tag) => hashtagLink(origin, tagKey(tag), tagKey(tag))).join(' ')]);
  const html = paragraphs
    .filter((lines) => lines.some((l) => l !== ''))
    .map((lines) => `<p>${lines.join('<br>')}</p>`)
    .join('');
  return html;
}
