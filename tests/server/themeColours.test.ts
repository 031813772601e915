/**
 * The server's own pages (the OAuth consent page, a public post's preview, the offline shell) draw
 * with copies of the themes' colours (server/rendering/darkGray.ts, themeColours.ts), since the
 * server imports no client code: each copied colour must be its theme's, so a change to a theme
 * fails here until copied.
 */
import { THEMES } from '../../lib/limits';
import { THEME_COLOURS } from '../../server/rendering/themeColours';
import { palettes } from '../../themes';

describe("the server pages' theme colours", () => {
  it('cover every theme', () => {
    expect(Object.keys(THEME_COLOURS).sort()).toEqual([...THEMES].sort());
  });

  describe.each(THEMES)('%s', (theme) => {
    it.each(Object.entries(THEME_COLOURS[theme]))('%s is the theme’s', (name, colour) => {
      expect(name in palettes[theme], `the ${theme} theme has no ${name}`).toBe(true);
      expect(colour).toBe(palettes[theme][name as keyof (typeof palettes)[typeof theme]]);
    });
  });
});
