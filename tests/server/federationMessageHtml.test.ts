/**
 * A message as the HTML of a Note (issue 67, 68): mentions and hashtags by the one shared rule
 * (lib/textEntities). A post's hashtags that are its tags are linked where they stand and not
 * repeated on the tag line; `@name@` this host is the local person; an entity is never a tag.
 */
import { messageHtmlOf as messageHtml } from '../../server/federation/objects';

const site = { url: 'https://posts.example', host: 'posts.example' };
const tagLink = (tag: string, shown = tag) =>
  `<a href="https://posts.example/tagged/${encodeURIComponent(tag)}" class="mention hashtag" rel="tag">#<span>${shown}</span></a>`;

describe('a message as a Note’s HTML', () => {
  it('links hashtags that are tags where they stand, the other tags on the last line', () => {
    expect(messageHtml(site, "#Sun's out, #123", [], ['sun', 'beach'])).toBe(
      `<p>${tagLink('sun', 'Sun')}&#39;s out, #123</p><p>${tagLink('beach')}</p>`,
    );
  });

  it('links the people it names by key: elsewhere with a 2-letter name, and @name@ this host', () => {
    const ok = {
      id: '1',
      username: 'ok@other.example',
      actor_uri: 'https://other.example/u/ok',
      url: 'https://other.example/@ok',
    };
    const ann = { id: '2', username: 'ann' };
    expect(messageHtml(site, '@OK@other.example and @ann@posts.example', [ok, ann])).toBe(
      '<p><span class="h-card"><a href="https://other.example/@ok" class="u-url mention">@<span>OK</span></a></span> and ' +
        '<span class="h-card"><a href="https://posts.example/profile/ann" class="u-url mention">@<span>ann</span></a></span></p>',
    );
  });
});
