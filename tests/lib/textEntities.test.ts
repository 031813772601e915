/**
 * Mentions and hashtags as Mastodon and twitter-text find them (their extractor specs and
 * conformance cases, written here as facts), plus this instance's own rule for local names.
 */
import {
  findHashtags,
  findMentions,
  hashtagTags,
  hostKey,
  mentionKey,
  mentionsOf,
  splitText,
} from '../../lib/textEntities';

const OWN = { ownHost: 'posts.example' };

describe('mentions, table of cases', () => {
  const cases: [string, string[]][] = [
    // Mastodon's extractor spec.
    ['a string without at signs', []],
    ['@screen_name@', []],
    ['@screen_name', ['screen_name']],
    // twitter-text: a name alone, with _, numeric; at the start, in the middle, several.
    ['@alice', ['alice']],
    ['@alice_adams', ['alice_adams']],
    ['@1234', ['1234']],
    ['hello @alice and @bob_1', ['alice', 'bob_1']],
    // Punctuation around a name is not part of it.
    ['(@alice)', ['alice']],
    ['@alice, hi', ['alice']],
    ['@alice: hi', ['alice']],
    ['"@alice"', ['alice']],
    ['Hi @ann. Ask @bob_1... or (@carol)!', ['ann', 'bob_1', 'carol']],
    // Not mentions: an address, a URL, a doubled or word-glued @, a name followed by letters.
    ['alice@example.com', []],
    ['a@alice', []],
    ['@@alice', []],
    ['https://example.com/@alice', []],
    ['see https://example.com/users?who=@alice now', []],
    ['x=@alice', []],
    ['@josé', []],
    // People elsewhere: their server's rules (1 character, `-`, `.` inside), a port, an IDN.
    ['@ok@other.example', ['ok@other.example']],
    ['@a@mastodon.example', ['a@mastodon.example']],
    ['@dash-name@akkoma.example', ['dash-name@akkoma.example']],
    ['@first.last@pleroma.example', ['first.last@pleroma.example']],
    ['@bob@host.example:8080 hi', ['bob@host.example:8080']],
    ['@bob@bücher.example', ['bob@bücher.example']],
    ['@bob@xn--bcher-kva.example', ['bob@xn--bcher-kva.example']],
    // The sentence's final dot (or colon) is not part of the host.
    ['Ask @ok@other.example.', ['ok@other.example']],
    ['Ask @ok@other.example: now', ['ok@other.example']],
    ['(@ok@other.example)', ['ok@other.example']],
    // Not a name elsewhere either: ending in `-` or `.`, or a host glued to more.
    ['@bad-@other.example', []],
    ['@ok@other.example@more', []],
    // Local names: 3 to 30 of [A-Za-z0-9_.], trailing dots dropped, cut at any other character.
    ['@ab', []],
    ['@dan-the-man', ['dan']],
    [`@${'a'.repeat(31)} but @${'b'.repeat(30)}`, ['b'.repeat(30)]],
    ['@ａｎｎ', []],
  ];
  it.each(cases)('%j', (text, names) => {
    expect(findMentions(text)).toEqual(names);
  });

  it('finds each name once (ignoring case), as first typed, in order', () => {
    expect(findMentions('@ann and @Bob.smith, then @ANN again and @bob.smith')).toEqual(['ann', 'Bob.smith']);
  });

  it('compares by key: lower case, the host in punycode; each once, in order', () => {
    expect(mentionsOf('@Bob@Bücher.Example and @bob@xn--bcher-kva.example @ANN @ann')).toEqual([
      { name: 'Bob@Bücher.Example', key: 'bob@xn--bcher-kva.example' },
      { name: 'ANN', key: 'ann' },
    ]);
    expect(mentionKey('Bob@BÜCHER.example:8080')).toBe('bob@xn--bcher-kva.example:8080');
    expect(hostKey('bücher.example')).toBe(new URL('http://bücher.example').hostname);
  });

  it('takes @name@ this site as the local name, held to the local rule', () => {
    expect(mentionsOf('@ann@posts.example and @ANN@Posts.Example', OWN)).toEqual([
      { name: 'ann@posts.example', key: 'ann' },
    ]);
    // Too short for a local name: not someone here, and not someone elsewhere either.
    expect(findMentions('@ok@posts.example', OWN)).toEqual([]);
    expect(findMentions('@ok@posts.example')).toEqual(['ok@posts.example']);
  });

  it('splits text into runs, mentions and hashtags that join back to the text', () => {
    const text = 'Hi @ann. Mail a@b.com, @ok@other.example! #sun.';
    const parts = splitText(text);
    expect(parts).toEqual([
      { text: 'Hi ' },
      { mention: 'ann', key: 'ann' },
      { text: '. Mail a@b.com, ' },
      { mention: 'ok@other.example', key: 'ok@other.example' },
      { text: '! ' },
      { hashtag: 'sun' },
      { text: '.' },
    ]);
    const joined = parts.map((p) => ('mention' in p ? `@${p.mention}` : 'hashtag' in p ? `#${p.hashtag}` : p.text));
    expect(joined.join('')).toBe(text);
    expect(splitText('')).toEqual([]);
    expect(splitText('no one')).toEqual([{ text: 'no one' }]);
  });
});

describe('hashtags, table of cases', () => {
  const cases: [string, string[]][] = [
    // Mastodon's extractor spec.
    ['a string without hash sign', []],
    ['#hashtag://', ['hashtag']],
    ['#hashtag', ['hashtag']],
    // Unicode letters, composed or not.
    ['#日本語', ['日本語']],
    ['#café', ['café']],
    ['#cafe\u0301', ['cafe\u0301']],
    ['#ÉtéÀParis', ['ÉtéÀParis']],
    ['#foo_bar', ['foo_bar']],
    ['#_foo', ['_foo']],
    // A middle dot inside a tag is part of it; at its end it is not.
    ['#foo·bar', ['foo·bar']],
    ['#foo· bar', ['foo']],
    // Digits alone are no tag; with a letter they are.
    ['#123', []],
    ['#123abc', ['123abc']],
    // The sentence's final dot, a comma, brackets.
    ['I like #tag.', ['tag']],
    ['#one, #two; (#three)', ['one', 'two', 'three']],
    ['#foo-bar', ['foo']],
    // Not hashtags: inside a URL, glued to a word, after `)`, `=`, `/` or `&` (an HTML entity).
    ['https://x.example/#anchor', []],
    ['https://x.example/page#anchor and #real', ['real']],
    ['page#anchor', []],
    ['(a)#b', []],
    ['x=#a /#b', []],
    ['it&#39;s &#x27; &amp;', []],
    ['#', []],
    ['# tag', []],
  ];
  it.each(cases)('%j', (text, tags) => {
    expect(findHashtags(text)).toEqual(tags);
  });

  it('keeps as tags only the hashtags the tag rule takes, each once', () => {
    // `·` is not in the tag charset, and 31 letters are too long: those stay text.
    expect(hashtagTags(`#Sun #sun #foo·bar #${'a'.repeat(31)} #café #ok`)).toEqual(['Sun', 'café', 'ok']);
    expect(hashtagTags('#cafe\u0301')).toEqual(['café']);
  });
});
