import { lazy, Suspense } from 'react';
import { useHydrated } from '../../../hooks/useHydrated';
import { Spinner } from '../../../components/ui/Spinner';

// Its own chunk, fetched once the page is interactive: neither the first load nor the page's grows.
const InstagramImportSettings = lazy(() => import('./InstagramImportSettings'));

/** Settings' "Import from Instagram or another Posts instance", loaded after the page's first render. */
export function LazyInstagramImport() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={<Spinner />}>
      <InstagramImportSettings />
    </Suspense>
  );
}
