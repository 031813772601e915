import { useEffect, useState } from 'react';

/**
 * False during the render that hydrates the server's HTML, true from the next one. For what the
 * server cannot know (what this browser keeps in localStorage): rendering it at once would not
 * match the server's HTML, and React keeps the server's DOM for form controls that differ.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
