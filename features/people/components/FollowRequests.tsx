/**
 * The people waiting for the viewer's answer (issue 70), on the notifications page: a heading with
 * their count as a badge, and each requester with Approve and Reject. Nothing shows while none
 * waits. An approved requester follows from then on; a rejected one may ask again.
 */
import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../components/ui/AppLink';
import { Avatar } from '../../../components/ui/Avatar';
import { Button } from '../../../components/ui/Button';
import { PersonName } from '../../../components/ui/PersonName';
import { links } from '../../../lib/pages';
import { errorMessage } from '../../../services/apiClient';
import { useAppDispatch } from '../../../store/hooks';
import { appTheme } from '../../../themes';
import { fetchLoggedUser } from '../../auth';
import { showToast } from '../../toasts';
import { type FollowRequestPerson, followRequestsApi } from '../state/followRequestsApi';
import { PeopleGrid } from './PeopleList';

const Section = styled.section`
  margin-bottom: 20px;
  h2 {
    display: flex;
    align-items: center;
    gap: 8px;
    margin: 0 0 4px;
    font-size: 18px;
  }
  p.lead { margin: 0 0 12px; color: ${appTheme.color.textMuted}; font-size: 14px; }
`;

/** The count beside the heading: how many wait. */
export const CountBadge = styled.span`
  min-width: 22px;
  padding: 1px 7px;
  border-radius: ${appTheme.radius.pill};
  background: ${appTheme.color.accent};
  color: ${appTheme.color.onAccent};
  font-size: 13px;
  font-weight: 700;
  text-align: center;
`;

const More = styled.div`
  display: flex;
  justify-content: center;
  padding: 12px 0 0;
`;

const Answers = styled.div`
  display: flex;
  flex: none;
  gap: 6px;
  @media (max-width: 420px) { flex-direction: column; }
`;

interface Waiting {
  people: FollowRequestPerson[];
  /** The next page's address, or null when all are loaded. */
  next: string | null;
  /** How many wait in all, loaded or not. */
  total: number;
}

const NONE: Waiting = { people: [], next: null, total: 0 };

export function FollowRequests() {
  const dispatch = useAppDispatch();
  const t = useTranslations('people');
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  // A failed read shows nothing: the notifications below still show; the list is read again next visit.
  const load = useCallback(
    () =>
      Promise.all([followRequestsApi.first(), followRequestsApi.count()]).then(
        ([page, total]): Waiting => ({
          people: page.items,
          next: page.next,
          total: Math.max(total, page.items.length),
        }),
        () => NONE,
      ),
    [],
  );
  useEffect(() => {
    let live = true;
    void load().then((list) => live && setWaiting(list));
    return () => {
      live = false;
    };
  }, [load]);

  const loadMore = async () => {
    if (!waiting?.next) return;
    setLoadingMore(true);
    try {
      const page = await followRequestsApi.page(waiting.next);
      setWaiting((now) => {
        if (!now) return now;
        const known = new Set(now.people.map((p) => p._id));
        const people = [...now.people, ...page.items.filter((p) => !known.has(p._id))];
        return { people, next: page.next, total: Math.max(now.total, people.length) };
      });
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setLoadingMore(false);
    }
  };

  const answer = async (person: FollowRequestPerson, what: 'approve' | 'reject') => {
    setBusy(person._id);
    try {
      await followRequestsApi.answer(person._id, what);
      setWaiting(
        (now) =>
          now && { ...now, people: now.people.filter((p) => p._id !== person._id), total: Math.max(0, now.total - 1) },
      );
      const { username } = person;
      dispatch(
        showToast(
          what === 'approve' ? t('toasts.approved', { username }) : t('toasts.rejected', { username }),
          'success',
        ),
      );
      // My followers count changed.
      if (what === 'approve') void dispatch(fetchLoggedUser());
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
      void load().then(setWaiting);
    } finally {
      setBusy(null);
    }
  };

  // The count may hold requests of people hidden from the list (a suspended requester): none to show, no section.
  if (!waiting || (waiting.people.length === 0 && !waiting.next)) return null;
  const { people, next, total } = waiting;
  return (
    <Section id="follow-requests" aria-labelledby="follow-requests-title">
      <h2 id="follow-requests-title">
        {t('requests.title')}
        <CountBadge aria-label={t('requests.waiting', { count: total })}>{total}</CountBadge>
      </h2>
      <p className="lead">{t('requests.lead')}</p>
      <PeopleGrid $columns={false}>
        {people.map((person) => (
          <li key={person._id}>
            <AppLink href={links.profile(person.username)}>
              <Avatar src={person.avatar} name={person.username} size={42} />
              <span style={{ minWidth: 0 }}>
                <strong>
                  <PersonName username={person.username} />
                </strong>
                {person.description && (
                  <span className="desc" dir="auto">
                    {person.description}
                  </span>
                )}
              </span>
            </AppLink>
            <Answers>
              <Button
                type="button"
                $size="sm"
                disabled={busy === person._id}
                aria-label={t('requests.approveLabel', { username: person.username })}
                onClick={() => void answer(person, 'approve')}
              >
                {t('requests.approve')}
              </Button>
              <Button
                type="button"
                $size="sm"
                $variant="secondary"
                disabled={busy === person._id}
                aria-label={t('requests.rejectLabel', { username: person.username })}
                onClick={() => void answer(person, 'reject')}
              >
                {t('requests.reject')}
              </Button>
            </Answers>
          </li>
        ))}
      </PeopleGrid>
      {next && (
        <More>
          <Button type="button" $variant="secondary" $size="sm" disabled={loadingMore} onClick={() => void loadMore()}>
            {loadingMore ? t('requests.loadingMore') : t('requests.showMore')}
          </Button>
        </More>
      )}
    </Section>
  );
}
