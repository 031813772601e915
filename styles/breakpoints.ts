import { BREAKPOINTS } from '../lib/limits';

/** `${media.md} { ... }` applies from that width up. */
export const media = {
  sm: `@media (min-width: ${BREAKPOINTS.sm}px)`,
  md: `@media (min-width: ${BREAKPOINTS.md}px)`,
  lg: `@media (min-width: ${BREAKPOINTS.lg}px)`,
  xl: `@media (min-width: ${BREAKPOINTS.xl}px)`,
} as const;

/** Below this width the navbar shows the hamburger instead of the desktop links. */
export const belowMd = `@media (max-width: ${BREAKPOINTS.md - 1}px)`;
