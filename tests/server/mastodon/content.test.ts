/**
 * A status's `content` (issue 68 #36, issue 67): the text's mentions and hashtags found by the one
 * shared rule (lib/textEntities) on the text before it is escaped, so an HTML entity is never a tag.
 */
import { type MentionEntity, contentOf } from '../../../server/mastodon/mappers';

const site = 'https://posts.example';
const ok: MentionEntity = { id: '1', username: 'ok', acct: 'ok@other.example', url: 'https://other.example/@ok' };
const ann: MentionEntity = { id: '2', username: 'ann', acct: 'ann', url: `${site}/profile/ann` };

describe('a status content', () => {
  it('escapes an apostrophe and makes no hashtag of it', () => {
    expect(contentOf(site, "it's Ann's")).toBe('<p>it&#39;s Ann&#39;s</p>');
    expect(contentOf(site, 'a "quote" & <b>')).toBe('<p>a &quot;quote&quot; &amp; &lt;b&gt;</p>');
  });

  it('links hashtags by the shared rule, and only tags the post has when it says which', () => {
    expect(contentOf(site, "Sun's #out, #123 #x·y")).toBe(
      `<p>Sun&#39;s <a href="${site}/tagged/out" class="mention hashtag" rel="tag">#<span>out</span></a>, #123 #x·y</p>`,
    );
    expect(contentOf(site, '#Sun and #rain', [], ['sun'])).toBe(
      `<p><a href="${site}/tagged/sun" class="mention hashtag" rel="tag">#<span>Sun</span></a> and #rain</p>`,
    );
    expect(contentOf(site, 'see https://x.example/#anchor')).toBe('<p>see https://x.example/#anchor</p>');
  });

  it('links the people the status mentions (a 2-letter name elsewhere, @name@ this host), and no one else', () => {
    expect(contentOf(site, 'Hi @ok@other.example, @ann@posts.example and @nobody.', [ok, ann])).toBe(
      '<p>Hi <span class="h-card"><a href="https://other.example/@ok" class="u-url mention">@<span>ok</span></a></span>, ' +
        `<span class="h-card"><a href="${site}/profile/ann" class="u-url mention">@<span>ann</span></a></span> and @nobody.</p>`,
    );
  });
});
