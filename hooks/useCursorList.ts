import { useCallback, useEffect, useState } from 'react';
import { errorMessage, type Page } from '../services/apiClient';

interface CursorList<T> {
  items: T[];
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  loadMore: () => void;
}

/** A list paged by the server's `Link: rel="next"` cursor, for lists kept outside the store. */
export function useCursorList<T>(
  first: (() => Promise<Page<T>>) | null,
  page: (url: string) => Promise<Page<T>>,
): CursorList<T> {
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(first !== null);
  const [error, setError] = useState<string | null>(null);

  // A new first page starts the list over. Reset while rendering (React renders again at once,
  // before committing), so no render shows the previous list, or an empty one as if loaded.
  // (Held in an object: useState would call a function given directly.)
  const [listOf, setListOf] = useState({ first });
  if (listOf.first !== first) {
    setListOf({ first });
    if (first) {
      setItems([]);
      setNext(null);
      setError(null);
      setLoading(true);
    }
  }

  useEffect(() => {
    if (!first) return;
    let cancelled = false;
    first()
      .then((result) => {
        if (cancelled) return;
        setItems(result.items);
        setNext(result.next);
      })
      .catch((err: unknown) => !cancelled && setError(errorMessage(err)))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [first]);

  const loadMore = useCallback(() => {
    if (!next || loading) return;
    setLoading(true);
    page(next)
      .then((result) => {
        setItems((current) => [...current, ...result.items]);
        setNext(result.next);
      })
      .catch((err: unknown) => {
        setError(errorMessage(err));
        setNext(null);
      })
      .finally(() => setLoading(false));
  }, [next, loading, page]);

  return { items, loading, error, hasMore: Boolean(next), loadMore };
}
