/**
 * One inline SVG icon drawn from its path (24×24, stroked). `Icon` names the app's set; code on every
 * page's first load (the toasts) draws its one icon here, without the whole set.
 */
export interface SvgIconProps {
  path: string;
  size?: number;
  title?: string;
  filled?: boolean;
  /** It points along the reading direction (an arrow, a chevron): mirrored right to left (globalCss). */
  directional?: boolean;
}

export function SvgIcon({ path, size = 20, title, filled = false, directional = false }: SvgIconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
      focusable="false"
      data-directional={directional ? '' : undefined}
    >
      {title ? <title>{title}</title> : null}
      <path d={path} />
    </svg>
  );
}

/** The close (×) icon's path, the same as `Icon name="close"`. */
export const CLOSE_ICON_PATH = 'M18 6 6 18M6 6l12 12';
