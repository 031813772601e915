/**
 * The server's own pages (the OAuth consent page, a public post's preview) draw with a copy of the
 * dark gray theme's colours (server/rendering/darkGray.ts), since the server imports no client
 * code: each copied colour must be the theme's, so a change to the theme fails here until copied.
 */
import { DARK_GRAY } from '../../server/rendering/darkGray';
import { darkGray } from '../../themes/darkGray';

describe("the server pages' dark gray colours", () => {
  it.each(Object.entries(DARK_GRAY))('%s is the theme’s', (name, colour) => {
    expect(name in darkGray, `themes/darkGray.ts has no ${name}`).toBe(true);
    expect(colour).toBe(darkGray[name as keyof typeof darkGray]);
  });
});
