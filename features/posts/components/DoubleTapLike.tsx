/**
 * A feed card's image (issue 68, item 28): a double click or double tap likes the post, with a heart
 * over the image for a moment; a single click still opens the post, once the second click had its
 * chance. A post already liked stays liked (as on Instagram). Keyboard users have the Like button:
 * Enter on the link opens the post at once. Not used on the post's own page, whose image may open a
 * full view.
 */
import Router from 'next/router';
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import styled, { keyframes } from 'styled-components';
import { AppLink } from '../../../components/ui/AppLink';
import { SvgIcon } from '../../../components/ui/SvgIcon';
import { overImage } from '../../../themes/fixed';

/** How long a first click waits for a second one before it opens the post. */
export const DOUBLE_TAP_MS = 280;
/** How long the heart stays (its animation, or a still heart when motion is reduced). */
const HEART_MS = 900;

const HEART =
  'M12 21s-7.5-4.6-9.5-9.3C1.1 8.4 3.2 4.5 6.9 4.5c2.1 0 3.6 1.1 5.1 3 1.5-1.9 3-3 5.1-3 3.7 0 5.8 3.9 4.4 7.2C19.5 16.4 12 21 12 21z';

const pop = keyframes`
  0% { opacity: 0; transform: scale(0.4); }
  15% { opacity: 1; transform: scale(1.15); }
  30% { transform: scale(1); }
  75% { opacity: 1; }
  100% { opacity: 0; transform: scale(1); }
`;

const Frame = styled(AppLink)`
  position: relative;
  display: block;
  /* A double tap likes here: the browser must not zoom on it. */
  touch-action: manipulation;
`;

const Heart = styled.span`
  position: absolute;
  inset: 0;
  display: flex;
  align-items: center;
  justify-content: center;
  pointer-events: none;
  color: ${overImage.text};
  filter: drop-shadow(0 2px 10px ${overImage.markShadow});
  animation: ${pop} ${HEART_MS}ms ease-out both;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

interface DoubleTapLikeProps {
  href: string;
  liked: boolean;
  onLike: () => unknown;
  children: ReactNode;
}

export function DoubleTapLike({ href, liked, onLike, children }: DoubleTapLikeProps) {
  const opening = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [heart, setHeart] = useState(0);

  useEffect(() => {
    if (!heart) return;
    const hide = setTimeout(() => setHeart(0), HEART_MS);
    return () => clearTimeout(hide);
  }, [heart]);
  useEffect(
    () => () => {
      if (opening.current) clearTimeout(opening.current);
    },
    [],
  );

  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    // New tab, another button: the browser's. Enter on the link (no pointer, detail 0): open now.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    if (event.detail === 0 && opening.current === null) return;
    event.preventDefault();
    if (opening.current !== null) {
      clearTimeout(opening.current);
      opening.current = null;
      setHeart((n) => n + 1);
      if (!liked) void onLike();
      return;
    }
    opening.current = setTimeout(() => {
      opening.current = null;
      void Router.push(href);
    }, DOUBLE_TAP_MS);
  };

  return (
    <Frame href={href} onClick={click}>
      {children}
      {heart > 0 && (
        <Heart key={heart} aria-hidden="true" data-like-heart="">
          <SvgIcon path={HEART} size={96} filled />
        </Heart>
      )}
    </Frame>
  );
}
