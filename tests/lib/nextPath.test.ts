import { AFTER_SIGN_IN, afterSignIn, loginPath, safeNextPath } from '../../lib/nextPath';
import { links } from '../../lib/pages';

describe('where a sign-in returns to (issue 68, item 3)', () => {
  it('follows a path on this site, query and all', () => {
    for (const path of [
      '/tagged/x',
      '/post/01a204b8-1716-70b8-9f9d-257fe2a8924b',
      '/profile/@bob@example.social',
      '/home?feed=everyone',
      '/tagged/sea%2Cside,hiking',
      '/oauth/authorize?client_id=a&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob',
      '/settings#security',
    ])
      expect(safeNextPath(path), path).toBe(path);
  });

  it('refuses another site, a scheme, a backslash, control characters and their encoded forms', () => {
    for (const next of [
      '//evil.com',
      '///evil.com',
      '/\\evil.com',
      '\\\\evil.com',
      '/\\/evil.com',
      'https://evil.com',
      'http:evil.com',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,hi',
      'evil.com',
      '%2F%2Fevil.com',
      '/%2F/evil.com',
      '/%2fevil.com',
      '/%5Cevil.com',
      '%2F%5Cevil.com',
      '/\t/evil.com',
      '\t//evil.com',
      '/\n/evil.com',
      '/\r\n/evil.com',
      '/%09/evil.com',
      '/%0A/evil.com',
      '/%00',
      ' /home',
      '/%E0%A4%A', // not decodable
      '',
      `/${'a'.repeat(3000)}`,
    ])
      expect(safeNextPath(next), JSON.stringify(next)).toBeNull();
  });

  it('refuses anything but a string, and the sign-in page itself', () => {
    for (const next of [undefined, null, 42, ['/home', '/tagged/x'], { toString: () => '/home' }])
      expect(safeNextPath(next)).toBeNull();
    for (const next of ['/login', '/login?next=/home', '/login/', '/login#x'])
      expect(safeNextPath(next), next).toBeNull();
    // Another page whose name starts the same is not the sign-in page.
    expect(safeNextPath('/loginHelp')).toBe('/loginHelp');
  });

  it('goes home without a safe next', () => {
    expect(AFTER_SIGN_IN).toBe('/home');
    expect(afterSignIn('//evil.com')).toBe('/home');
    expect(afterSignIn(undefined)).toBe('/home');
    expect(afterSignIn('/tagged/x')).toBe('/tagged/x');
  });

  it('writes the sign-in link with next encoded, and without an unsafe one', () => {
    expect(loginPath('/tagged/x')).toBe('/login?next=%2Ftagged%2Fx');
    expect(loginPath('/home?feed=everyone')).toBe('/login?next=%2Fhome%3Ffeed%3Deveryone');
    expect(links.login('/post/a')).toBe('/login?next=%2Fpost%2Fa');
    expect(loginPath('//evil.com')).toBe('/login');
    expect(links.login()).toBe('/login');
    // What the query parser hands back is the path again.
    expect(new URL(loginPath('/home?feed=everyone&x=1'), 'http://h').searchParams.get('next')).toBe(
      '/home?feed=everyone&x=1',
    );
  });
});
