import { useEffect, useRef, useState } from 'react';
import { NAVBAR_HIDE_SCROLL_PX, PROFILE_NAVBAR_TRANSLUCENT_PX } from '../lib/limits';

/**
 * The navbar hides while the user scrolls down past 30px and comes back when they scroll up.
 * On profile pages it is translucent while the scroll position is under 50px.
 */
export function useNavbarScroll(isProfilePage: boolean): { hidden: boolean; translucent: boolean } {
  const [y, setY] = useState(0);
  const [hidden, setHidden] = useState(false);
  const last = useRef(0);

  useEffect(() => {
    const onScroll = () => {
      const current = window.scrollY;
      setY(current);
      if (current <= NAVBAR_HIDE_SCROLL_PX) setHidden(false);
      else if (current > last.current) setHidden(true);
      else if (current < last.current) setHidden(false);
      last.current = current;
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return { hidden, translucent: isProfilePage && y < PROFILE_NAVBAR_TRANSLUCENT_PX };
}
