/**
 * One rendering of a message (issue 69, item 3): the client API's `content` and ActivityPub's
 * `content` are the same HTML for the same message, mentions and tags.
 */
import { contentOf } from '../../server/mastodon/mappers';
import { messageHtmlOf } from '../../server/federation/objects';
import { messageHtml } from '../../server/rendering/messageHtml';

const origin = 'https://posts.example';
const none = () => undefined;

describe('a message as HTML', () => {
  it('parts paragraphs at blank lines and keeps single line breaks', () => {
    expect(messageHtml('one\ntwo\r\n\r\nthree\n\n\nfour', { origin, mentionHref: none })).toBe(
      '<p>one<br>two</p><p>three</p><p><br>four</p>',
    );
    expect(messageHtml('', { origin, mentionHref: none })).toBe('');
  });

  it('puts a post’s tags that are not in its text on a last line, each once', () => {
    expect(messageHtml('#Sun out', { origin, mentionHref: none, tags: ['sun', 'sea'] })).toBe(
      `<p><a href="${origin}/tagged/sun" class="mention hashtag" rel="tag">#<span>Sun</span></a> out</p>` +
        `<p><a href="${origin}/tagged/sea" class="mention hashtag" rel="tag">#<span>sea</span></a></p>`,
    );
  });

  it('escapes what a mention links to', () => {
    expect(messageHtml('@ann', { origin, mentionHref: () => `${origin}/profile/a"b` })).toBe(
      `<p><span class="h-card"><a href="${origin}/profile/a&quot;b" class="u-url mention">@<span>ann</span></a></span></p>`,
    );
  });

  it('is the same for the client API and for ActivityPub', () => {
    const text = "Hi @ann, it's #Sun\nsee you\n\n#later";
    const ann = { id: '2', username: 'ann', acct: 'ann', url: `${origin}/profile/ann` };
    const site = { url: origin, host: 'posts.example' };
    const federated = messageHtmlOf(
      site,
      text,
      [{ id: '2', username: 'ann', url: `${origin}/profile/ann` }],
      ['sun', 'beach'],
    );
    expect(contentOf(origin, text, [ann], ['sun', 'beach'])).toBe(federated);
    expect(federated).toContain('<br>see you</p><p>#later</p><p><a');
    // A comment (no tags of its own): every hashtag that can be a tag is linked, in both.
    expect(contentOf(origin, 'nice #later', [])).toBe(messageHtmlOf(site, 'nice #later', []));
    expect(contentOf(origin, 'nice #later', [])).toContain('/tagged/later');
  });
});
