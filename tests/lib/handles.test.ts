import { handleOf, isRemoteName, isRemoteQuery, profileNameOf, profilePath } from '../../lib/handles';
import { findMentions, splitText } from '../../lib/textEntities';
import { PRIVATE_PAGES } from '../../lib/pageReads';
import { links } from '../../lib/pages';

describe('handles of people elsewhere (issue 32)', () => {
  it('tells a search for someone elsewhere from a name prefix', () => {
    for (const q of ['@bob@example.social', 'bob@example.social', 'acct:bob@127.0.0.1:3001', 'https://x.test/@bob'])
      expect(isRemoteQuery(q), q).toBe(true);
    for (const q of ['bob', '@bob', 'bob@', '@bob@', 'ftp://x.test/bob', 'bob@exa mple.social'])
      expect(isRemoteQuery(q), q).toBe(false);
    expect(isRemoteName('bob@example.social')).toBe(true);
    expect(isRemoteName('bob')).toBe(false);
  });

  it('takes an internationalised host, and looks it up in its ASCII form', () => {
    expect(isRemoteQuery('@bob@bücher.example')).toBe(true);
    expect(handleOf('@Bob@Bücher.Example:8443')).toEqual({ name: 'Bob', host: 'xn--bcher-kva.example:8443' });
    expect(handleOf('acct:ok@other.example')).toEqual({ name: 'ok', host: 'other.example' });
    expect(handleOf('bob')).toBeNull();
  });

  it('writes their profile path as /profile/@name@host and reads it back', () => {
    expect(profilePath('bob@example.social')).toBe('/profile/@bob@example.social');
    expect(profilePath('bob@127.0.0.1:3001')).toBe('/profile/@bob@127.0.0.1:3001');
    expect(links.profile('bob@example.social')).toBe('/profile/@bob@example.social');
    expect(links.profile('ana b')).toBe('/profile/ana%20b');
    expect(profileNameOf('@bob@example.social')).toBe('bob@example.social');
    expect(profileNameOf('bob@example.social')).toBe('bob@example.social');
    // A local name is left as it is, leading @ or not (no host after it).
    expect(profileNameOf('@ann')).toBe('@ann');
    expect(profileNameOf('ann')).toBe('ann');
    // The page's first reads ask for the person by their name here.
    expect(PRIVATE_PAGES['/profile/[profileName]'].reads({ profileName: '@bob@example.social' })).toEqual([
      '/api/users/bob%40example.social',
      '/api/users/bob%40example.social/posts',
    ]);
  });

  it('finds @name@host mentions whole, and local ones as before', () => {
    expect(findMentions('Hi @bob@example.social and @ann, and @cat@127.0.0.1:3001.')).toEqual([
      'bob@example.social',
      'ann',
      'cat@127.0.0.1:3001',
    ]);
    // An email address is still not a mention.
    expect(findMentions('write to ann@example.com')).toEqual([]);
    const text = 'Hi @bob@example.social!';
    const parts = splitText(text);
    expect(parts).toEqual([
      { text: 'Hi ' },
      { mention: 'bob@example.social', key: 'bob@example.social' },
      { text: '!' },
    ]);
  });
});
