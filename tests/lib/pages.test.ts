import { homeFeedOf, links } from '../../lib/pages';
import { PRIVATE_PAGES } from '../../lib/pageReads';
import { tagList } from '../../lib/tags';

describe('the page table', () => {
  it('writes links encoded as the routes decode them', () => {
    expect(links.post('a/b c')).toBe('/post/a%2Fb%20c');
    expect(links.profile('ana b')).toBe('/profile/ana%20b');
    expect(links.tagged(['Sea'])).toBe('/tagged/Sea');
    // Each tag is encoded, the commas between them are not.
    expect(links.tagged(['sea,side', 'hiking'])).toBe('/tagged/sea%2Cside,hiking');
    expect([
      links.landing(),
      links.login(),
      links.createAccount(),
      links.home(),
      links.settings(),
      links.contact(),
      links.notifications(),
      links.saved(),
      links.myProfile(),
    ]).toEqual([
      '/',
      '/login',
      '/createAccount',
      '/home',
      '/settings',
      '/contact',
      '/notifications',
      '/saved',
      '/profile',
    ]);
  });

  it("keeps the home feed's tab in the address: Everyone is ?feed=everyone, anything else Following (issue 68)", () => {
    expect(links.home('all')).toBe('/home?feed=everyone');
    expect(links.home('following')).toBe('/home');
    for (const [param, feed] of [
      ['everyone', 'all'],
      [undefined, 'following'],
      ['all', 'following'],
      [['everyone', 'everyone'], 'following'],
    ] as const)
      expect(homeFeedOf(param)).toBe(feed);
    expect(PRIVATE_PAGES['/home'].reads({ feed: 'everyone' })).toEqual(['/api/posts?feed=all']);
  });

  it('reads the tags of a /tagged address as tags: trimmed, without #, once each ignoring case, none empty', () => {
    expect(tagList('#Sea, hiking,sea,')).toEqual(['Sea', 'hiking']);
    expect(tagList(' , #')).toEqual([]);
  });

  it("gives each private page's first reads as the API modules build them", () => {
    expect(PRIVATE_PAGES['/home'].reads({})).toEqual(['/api/posts?feed=following']);
    expect(PRIVATE_PAGES['/tagged/[tags]'].reads({ tags: '#Sea, hiking' })).toEqual([
      '/api/posts/tagged?tags=Sea%2Chiking',
    ]);
    expect(PRIVATE_PAGES['/tagged/[tags]'].reads({ tags: ',' })).toEqual([]);
    expect(PRIVATE_PAGES['/profile/[profileName]'].reads({ profileName: 'ana b' })).toEqual([
      '/api/users/ana%20b',
      '/api/users/ana%20b/posts',
    ]);
    expect(PRIVATE_PAGES['/post/[id]'].reads({ id: 'p1' })).toEqual(['/api/posts/p1']);
    expect(PRIVATE_PAGES['/contact'].reads({})).toEqual(['/api/instance']);
    expect(PRIVATE_PAGES['/settings'].reads({})).toEqual([]);
    expect(PRIVATE_PAGES['/notifications'].reads({})).toEqual(['/api/notifications']);
    expect(PRIVATE_PAGES['/saved'].reads({})).toEqual(['/api/posts/saved']);
    expect(PRIVATE_PAGES['/profile'].redirect?.({ username: 'ana b' } as never)).toBe('/profile/ana%20b');
  });
});
