/**
 * The people waiting for the viewer's answer (issue 70), on the notifications page: a heading with
 * their count as a badge, and each requester with Approve and Reject. Nothing shows while none
 * waits. An approved requester follows from then on; a rejected one may ask again.
 */
import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
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
import { FOLLOW_REQUEST_TEXTS as T } from '../lib/followRequestTexts';
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

const Answers = styled.div`
  display: flex;
  flex: none;
  gap: 6px;
  @media (max-width: 420px) { flex-direction: column; }
`;

export function FollowRequests() {
  const dispatch = useAppDispatch();
  const [people, setPeople] = useState<FollowRequestPerson[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  // A failed read shows nothing: the notifications below still show; the list is read again next visit.
  const load = useCallback(
    () =>
      followRequestsApi.list().then(
        (list) => list,
        () => [],
      ),
    [],
  );
  useEffect(() => {
    let live = true;
    void load().then((list) => live && setPeople(list));
    return () => {
      live = false;
    };
  }, [load]);

  const answer = async (person: FollowRequestPerson, what: 'approve' | 'reject') => {
    setBusy(person._id);
    try {
      await followRequestsApi.answer(person._id, what);
      setPeople((list) => (list ?? []).filter((p) => p._id !== person._id));
      dispatch(showToast(what === 'approve' ? T.approved(person.username) : T.rejected(person.username), 'success'));
      // My followers count changed.
      if (what === 'approve') void dispatch(fetchLoggedUser());
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
      void load().then(setPeople);
    } finally {
      setBusy(null);
    }
  };

  if (!people || people.length === 0) return null;
  return (
    <Section id="follow-requests" aria-labelledby="follow-requests-title">
      <h2 id="follow-requests-title">
        {T.title}
        <CountBadge aria-label={`${people.length} waiting`}>{people.length}</CountBadge>
      </h2>
      <p className="lead">{T.lead}</p>
      <PeopleGrid $columns={false}>
        {people.map((person) => (
          <li key={person._id}>
            <AppLink href={links.profile(person.username)}>
              <Avatar src={person.avatar} name={person.username} size={42} />
              <span style={{ minWidth: 0 }}>
                <strong>
                  <PersonName username={person.username} />
                </strong>
                {person.description && <span className="desc">{person.description}</span>}
              </span>
            </AppLink>
            <Answers>
              <Button
                type="button"
                $size="sm"
                disabled={busy === person._id}
                aria-label={`Approve ${person.username}`}
                onClick={() => void answer(person, 'approve')}
              >
                Approve
              </Button>
              <Button
                type="button"
                $size="sm"
                $variant="secondary"
                disabled={busy === person._id}
                aria-label={`Reject ${person.username}`}
                onClick={() => void answer(person, 'reject')}
              >
                Reject
              </Button>
            </Answers>
          </li>
        ))}
      </PeopleGrid>
    </Section>
  );
}
