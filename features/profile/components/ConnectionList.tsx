import { useInfiniteScroll } from '../../../hooks/useInfiniteScroll';
import type { PersonResult } from '../../../lib/types';
import { queryError, useQueryApi, useQueryDispatch } from '../../../store/queryApi';
import type { Connection } from '../state/usersApi';
import { followChanged, followerRemoved, useConnectionsInfiniteQuery } from '../state/connectionQueries';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Spinner } from '../../../components/ui/Spinner';
import { useState } from 'react';
import { useTranslations } from 'use-intl/react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { errorMessage } from '../../../services/apiClient';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { fetchLoggedUser, selectUser } from '../../auth';
import { PeopleList, followRequestsApi } from '../../people';
import { showToast } from '../../toasts';
import { ConnectionSkeleton } from './ConnectionSkeleton';

/** Followers or following of a user, paged by the server's cursor (RTK Query: connectionQueries.ts). */
export default function ConnectionList({ username, kind }: { username: string; kind: Connection }) {
  useQueryApi();
  const t = useTranslations('profile');
  const dispatch = useQueryDispatch();
  const arg = { username, kind };
  const { data, error, isFetching, hasNextPage, fetchNextPage, isFetchNextPageError } =
    useConnectionsInfiniteQuery(arg);
  const items = data?.pages.flatMap((page) => page.items) ?? [];
  // A page that failed to come ends the scrolling, as before: no retry loop at the bottom.
  const sentinel = useInfiniteScroll(() => void fetchNextPage(), hasNextPage && !isFetching && !isFetchNextPageError);
  const onFollowChange = (person: PersonResult, followed: boolean) =>
    dispatch(followChanged(arg, person._id, followed));
  // One's own followers may be removed (issue 70), after a confirmation.
  const me = useAppSelector(selectUser);
  const appDispatch = useAppDispatch();
  const [removing, setRemoving] = useState<PersonResult | null>(null);
  const [busy, setBusy] = useState(false);
  const ownFollowers = kind === 'followers' && me?.username === username;
  const remove = async (person: PersonResult) => {
    setBusy(true);
    try {
      await followRequestsApi.removeFollower(person.username);
      dispatch(followerRemoved(arg, person._id));
      appDispatch(showToast(t('followerRemoved', { username: person.username }), 'success'));
      void appDispatch(fetchLoggedUser());
    } catch (error) {
      appDispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  };

  if (isFetching && items.length === 0) {
    return <ConnectionSkeleton />;
  }
  if (error && items.length === 0) return <EmptyState role="alert">{queryError(error)}</EmptyState>;
  if (items.length === 0) {
    return (
      <EmptyState>
        <h2>{kind === 'followers' ? t('noFollowers') : t('noFollowing')}</h2>
      </EmptyState>
    );
  }
  return (
    <>
      <PeopleList people={items} onFollowChange={onFollowChange} onRemove={ownFollowers ? setRemoving : undefined} />
      {removing && (
        <ConfirmDialog
          title={t('removeFollower.title')}
          message={t('removeFollower.message', { username: removing.username })}
          confirmLabel={t('removeFollower.confirm')}
          busy={busy}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
      <div ref={sentinel} style={{ display: 'flex', justifyContent: 'center', padding: 16 }}>
        {isFetching && <Spinner />}
      </div>
    </>
  );
}
