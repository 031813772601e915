import { lazy, Suspense } from 'react';
import { useHydrated } from '../../../hooks/useHydrated';
import { Spinner } from '../../../components/ui/Spinner';

// Its own chunk, fetched once the page is interactive: neither the first load nor the page's grows.
const PushSettings = lazy(() => import('./PushSettings'));

/** Settings' "Notifications on this device" (Web Push), loaded after the page's first render. */
export function LazyPushSettings() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={<Spinner />}>
      <PushSettings />
    </Suspense>
  );
}
