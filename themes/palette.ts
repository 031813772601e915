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
  success: string;
  focus: string;
  skeleton: string;
  overlay: string;
  navbar: string;
}
