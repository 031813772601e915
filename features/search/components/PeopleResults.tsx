import { useEffect, useState, type KeyboardEvent } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../components/ui/AppLink';
import { Avatar } from '../../../components/ui/Avatar';
import { PersonName } from '../../../components/ui/PersonName';
import { Spinner } from '../../../components/ui/Spinner';
import { isRemoteQuery } from '../../../lib/handles';
import { links } from '../../../lib/pages';
import type { PersonResult } from '../../../lib/types';
import { queryError, useQueryApi } from '../../../store/queryApi';
import { appTheme } from '../../../themes';
import { usePeopleQuery } from '../state/searchQueries';

/** How long typing must pause before people are looked up. */
export const PEOPLE_SEARCH_DEBOUNCE_MS = 250;
/**
 * The same for someone elsewhere (`@name@host`, an address): each look-up reaches their server,
 * and a host typed halfway (`bob@mastodon.soc`) is one that fails, so a short pause does not do.
 */
export const REMOTE_SEARCH_DEBOUNCE_MS = 800;

/** How long typing must pause before `query` is looked up. */
export const searchDelayOf = (query: string) =>
  isRemoteQuery(query) ? REMOTE_SEARCH_DEBOUNCE_MS : PEOPLE_SEARCH_DEBOUNCE_MS;

const Head = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  margin: 0 0 6px;
  font-size: 13px;
  color: ${appTheme.color.textMuted};
`;

const List = styled.ul`
  margin: 0 -6px;
  padding: 0;
  list-style: none;
  max-height: 320px;
  overflow-y: auto;
  a {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 6px;
    border-radius: 8px;
    color: ${appTheme.color.text};
    text-decoration: none;
    &:hover, &:focus-visible { background: ${appTheme.color.surfaceRaised}; }
  }
  span.who { flex: 1; min-width: 0; display: grid; }
  /* A name from elsewhere wraps before its server: the server is what tells two bobs apart. */
  strong { overflow-wrap: anywhere; }
  span.desc { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  span.desc { font-size: 12px; color: ${appTheme.color.textMuted}; }
  span.following { font-size: 12px; color: ${appTheme.color.textMuted}; flex: none; }
`;

interface PeopleResultsProps {
  /** The name typed so far, without its `@`; or `@name@host` / an address for someone elsewhere. */
  query: string;
  /** The people found for `query`, so Enter can open the first one. */
  onFound?: (people: PersonResult[], query: string) => void;
  onNavigate?: () => void;
  /** Arrow Up from the first person goes back to the search field. */
  onLeaveUp?: () => void;
}

/** People whose username starts with what is typed (or the one a handle names), looked up once typing pauses. */
export function PeopleResults({ query, onFound, onNavigate, onLeaveUp }: PeopleResultsProps) {
  useQueryApi();
  const t = useTranslations('search');
  // What is asked for: `query` once typing has paused on it (RTK Query reads it: searchQueries.ts).
  const [asked, setAsked] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(query), searchDelayOf(query));
    return () => clearTimeout(timer);
  }, [query]);
  const { currentData, error, isFetching } = usePeopleQuery(asked ?? skipToken);

  // The answer for what is typed now, once it is there (an answer for an older query is not).
  const settled = asked === query && !isFetching;
  const people = settled ? currentData : undefined;
  const failure = settled && !currentData ? queryError(error) : null;

  useEffect(() => {
    if (people) onFound?.(people, query);
  }, [people, query, onFound]);

  // Up and Down move between the people (Tab does too); Up from the first returns to the field.
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const items = [...event.currentTarget.querySelectorAll('a')];
    const at = items.indexOf(document.activeElement as HTMLAnchorElement);
    event.preventDefault();
    if (event.key === 'ArrowUp' && at <= 0) onLeaveUp?.();
    else items[event.key === 'ArrowDown' ? Math.min(at + 1, items.length - 1) : at - 1]?.focus();
  };

  let status = t('people.searching');
  if (failure) status = failure;
  else if (people) status = people.length === 0 ? t('people.none') : t('people.found', { count: people.length });

  return (
    <section aria-label={t('people.label')}>
      <Head>
        <span role="status">{status}</span>
        {!people && !failure && <Spinner $size={12} />}
      </Head>
      {people && people.length > 0 && (
        <List onKeyDown={onKeyDown} data-people-results="">
          {people.map((person) => (
            <li key={person._id}>
              <AppLink href={links.profile(person.username)} onClick={onNavigate}>
                <Avatar src={person.avatar} name={person.username} size={32} />
                <span className="who">
                  <strong>
                    <PersonName username={person.username} />
                  </strong>
                  {person.description && <span className="desc">{person.description}</span>}
                </span>
                {person.followedByMe && <span className="following">{t('people.following')}</span>}
              </AppLink>
            </li>
          ))}
        </List>
      )}
    </section>
  );
}

export default PeopleResults;
