/** The colours every theme defines; the page reads them as CSS variables (`--bg`, ...). */
export interface Palette {
  bg: string;
  surface: string;
  surfaceRaised: string;
  border: string;
  text: string;
  textMuted: string;
  accent: string;
  onAccent: string;
  accentSoft: string;
  danger: string;
  /** The danger button's hover. */
  dangerSoft: string;
  success: string;
  focus: string;
  skeleton: string;
  overlay: string;
  navbar: string;
  /**
   * The profile's navbar over the banner: the background at 75%, so the text keeps 4.5:1 (WCAG AA)
   * over a white banner, hover and current-page tints included, while the banner shows through.
   */
  navbarTranslucent: string;
}
