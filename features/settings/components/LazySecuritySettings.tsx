import { lazy, Suspense } from 'react';
import { useHydrated } from '../../../hooks/useHydrated';
import { Spinner } from '../../../components/ui/Spinner';

// Its own chunk, fetched once the page is interactive: the page's first load stays as it was.
const SecuritySettings = lazy(() => import('./SecuritySettings'));

/** Devices, two-factor sign-in, the data export and deletion, loaded after the page's first render. */
export function LazySecuritySettings({ username }: { username: string }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={<Spinner />}>
      <SecuritySettings username={username} />
    </Suspense>
  );
}
