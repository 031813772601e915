import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

/** Returns a ref for a sentinel element; `onReach` runs when it nears the viewport. */
export function useInfiniteScroll(onReach: () => void, enabled: boolean) {
  const observer = useRef<IntersectionObserver | null>(null);
  // The latest `onReach`, kept after each commit (never while rendering: a render React discards
  // would leave its callback behind). The observer calls it later, from its own task.
  const callback = useRef(onReach);
  useLayoutEffect(() => {
    callback.current = onReach;
  });

  useEffect(() => () => observer.current?.disconnect(), []);

  return useCallback(
    (node: HTMLElement | null) => {
      observer.current?.disconnect();
      if (!node || !enabled || typeof IntersectionObserver === 'undefined') return;
      observer.current = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) callback.current();
        },
        { rootMargin: '600px 0px' },
      );
      observer.current.observe(node);
    },
    [enabled],
  );
}
