/**
 * Colours and the pill radius come from themes/ (docs/frontend.md, "Colours and radii"): a file of
 * components/, features/, pages/, styles/ or hooks/ that writes `999px` or a colour itself (hex,
 * `rgb()` and the other colour functions, a named colour in a declaration or an SVG attribute)
 * fails here, with its file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
const FOLDERS = ['components', 'features', 'pages', 'styles', 'hooks'];

// CSS's named colours (CSS Color 4), without `transparent` and `currentColor`, which are no colour of their own.
const NAMED = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown ' +
    'burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan ' +
    'darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred ' +
    'darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink ' +
    'deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold ' +
    'goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush ' +
    'lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey ' +
    'lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime ' +
    'limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen ' +
    'mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin ' +
    'navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise ' +
    'palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue ' +
    'saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow ' +
    'springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen'
  ).split(' '),
);

const COLOR_PROPERTY =
  /(?:^|[\s;{(,])(?:color|background(?:-color)?|border(?:-(?:top|right|bottom|left))?(?:-color)?|outline(?:-color)?|fill|stroke|(?:box|text)-shadow|text-decoration(?:-color)?|caret-color|accent-color|column-rule(?:-color)?|stop-color|stopColor|backgroundColor|borderColor|outlineColor)\s*[:=]\s*([^;`\n]*)/gi;
const HEX = /#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})\b/i;
const COLOR_FUNCTION = /\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix)\(/i;

/** What is wrong with one line of a style-bearing file, if anything. */
function rawStyle(line: string): string | null {
  if (line.includes('999px')) return '999px (use appTheme.radius.pill)';
  const hex = HEX.exec(line);
  if (hex) return `the colour ${hex[0]}`;
  const fn = COLOR_FUNCTION.exec(line);
  if (fn) return `the colour function ${fn[0]}`;
  for (const [, value] of line.matchAll(COLOR_PROPERTY)) {
    // Words only: an interpolation (`${appTheme.color.text}`) names no colour.
    const named = value
      .replace(/\$\{[^}]*\}?/g, ' ')
      .split(/[^a-z]+/i)
      .find((word) => NAMED.has(word.toLowerCase()));
    if (named) return `the named colour ${named}`;
  }
  return null;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(file);
    else if (/\.(?:tsx?|css)$/.test(entry.name)) yield file;
  }
}

describe('colours and radii come from themes/', () => {
  it('finds each kind of raw style, and leaves tokens and look-alikes alone', () => {
    expect(rawStyle('  border-radius: 999px;')).toMatch(/999px/);
    expect(rawStyle('  color: #fff;')).toMatch(/#fff/);
    expect(rawStyle("  background: '#1c1c21',")).toMatch(/#1c1c21/);
    expect(rawStyle('  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.4);')).toMatch(/rgba\(/);
    expect(rawStyle('  text-shadow: 0 1px 3px rgb(0 0 0 / 80%);')).toMatch(/rgb\(/);
    expect(rawStyle('  border: 1px solid white;')).toMatch(/white/);
    expect(rawStyle("      style={{ backgroundColor: 'Black' }}")).toMatch(/Black/);
    expect(rawStyle('<circle fill="red" />')).toMatch(/red/);

    expect(rawStyle('  border-radius: ${appTheme.radius.pill};')).toBeNull();
    expect(rawStyle('  color: ${appTheme.color.text};')).toBeNull();
    expect(rawStyle('  border: 1px solid ${appTheme.color.border}; background: transparent;')).toBeNull();
    expect(rawStyle('  border: 2px solid currentColor;')).toBeNull();
    expect(rawStyle('  white-space: nowrap; overflow-wrap: anywhere;')).toBeNull();
    expect(rawStyle('<a href="#main">Skip</a> {`#${tag}`}')).toBeNull();
  });

  it('holds for every file of components/, features/, pages/, styles/ and hooks/', () => {
    const found: string[] = [];
    for (const folder of FOLDERS) {
      for (const file of sourceFiles(path.join(root, folder))) {
        // Comments may name colours ("white text"); only code counts.
        const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, (comment) =>
          comment.replace(/[^\n]/g, ' '),
        );
        code.split('\n').forEach((line, index) => {
          if (/^\s*\/\//.test(line)) return;
          const problem = rawStyle(line);
          if (problem) found.push(`${path.relative(root, file)}:${index + 1}: ${problem}`);
        });
      }
    }
    expect(found).toEqual([]);
  });
});
