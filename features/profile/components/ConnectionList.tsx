import { useInfiniteScroll } from '../../../hooks/useInfiniteScroll';
import type { PersonResult } from '../../../lib/types';
import { queryError, useQueryApi, useQueryDispatch } from '../../../store/queryApi';
import type { Connection } from '../state/usersApi';
import { followChanged, useConnectionsInfiniteQuery } from '../state/connectionQueries';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Spinner } from '../../../components/ui/Spinner';
import { PeopleList } from '../../people';
import { ConnectionSkeleton } from './ConnectionSkeleton';

/** Followers or following of a user, paged by the server's cursor (RTK Query: connectionQueries.ts). */
export default function ConnectionList({ username, kind }: { username: string; kind: Connection }) {
  useQueryApi();
  const dispatch = useQueryDispatch();
  const arg = { username, kind };
  const { data, error, isFetching, hasNextPage, fetchNextPage, isFetchNextPageError } =
    useConnectionsInfiniteQuery(arg);
  const items = data?.pages.flatMap((page) => page.items) ?? [];
  // A page that failed to come ends the scrolling, as before: no retry loop at the bottom.
  const sentinel = useInfiniteScroll(() => void fetchNextPage(), hasNextPage && !isFetching && !isFetchNextPageError);
  const onFollowChange = (person: PersonResult, followed: boolean) =>
    dispatch(followChanged(arg, person._id, followed));

  if (isFetching && items.length === 0) {
    return <ConnectionSkeleton />;
  }
  if (error && items.length === 0) return <EmptyState role="alert">{queryError(error)}</EmptyState>;
  if (items.length === 0) {
    return (
      <EmptyState>
        <h2>{kind === 'followers' ? 'No followers yet' : 'Not following anyone yet'}</h2>
      </EmptyState>
    );
  }
  return (
    <>
      <PeopleList people={items} onFollowChange={onFollowChange} />
      <div ref={sentinel} style={{ display: 'flex', justifyContent: 'center', padding: 16 }}>
        {isFetching && <Spinner />}
      </div>
    </>
  );
}
