import { useCallback } from 'react';
import { useCursorList } from '../../../hooks/useCursorList';
import { useInfiniteScroll } from '../../../hooks/useInfiniteScroll';
import { usersApi, type Connection } from '../state/usersApi';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Skeleton } from '../../../components/ui/Skeleton';
import { Spinner } from '../../../components/ui/Spinner';
import { PeopleGrid, PeopleList } from '../../people';

/** Followers or following of a user, paged by the server's cursor. */
export function ConnectionList({ username, kind }: { username: string; kind: Connection }) {
  const first = useCallback(() => usersApi.connections(username, kind), [username, kind]);
  const { items, loading, error, hasMore, loadMore } = useCursorList(first, usersApi.connectionsPage);
  const sentinel = useInfiniteScroll(loadMore, hasMore && !loading);

  if (loading && items.length === 0) {
    return (
      <PeopleGrid aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <li key={i}>
            <Skeleton $h="66px" />
          </li>
        ))}
      </PeopleGrid>
    );
  }
  if (error && items.length === 0) return <EmptyState role="alert">{error}</EmptyState>;
  if (items.length === 0) {
    return (
      <EmptyState>
        <h2>{kind === 'followers' ? 'No followers yet' : 'Not following anyone yet'}</h2>
      </EmptyState>
    );
  }
  return (
    <>
      <PeopleList people={items} />
      <div ref={sentinel} style={{ display: 'flex', justifyContent: 'center', padding: 16 }}>
        {loading && <Spinner />}
      </div>
    </>
  );
}
