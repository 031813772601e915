import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};
const onClient = () => true;
const onServer = () => false;

/**
 * False during the render that hydrates the server's HTML, true from the next one (and at once in
 * a component mounted after hydration). For what the server cannot know (what this browser keeps in
 * localStorage): rendering it at once would not match the server's HTML, and React keeps the
 * server's DOM for form controls that differ. React renders the server's value while hydrating,
 * then re-renders with the client's.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, onClient, onServer);
}
