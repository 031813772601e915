import { lazy, Suspense } from 'react';
import { useHydrated } from '../../../hooks/useHydrated';
import { Spinner } from '../../../components/ui/Spinner';

// Its own chunk: only admins ever load it.
const AdminPanel = lazy(() => import('./AdminPanel'));

/** The report queue, the user lookup and the log, loaded after the page's first render. */
export function LazyAdminPanel() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={<Spinner />}>
      <AdminPanel />
    </Suspense>
  );
}
