import { useCallback } from 'react';
import styled from 'styled-components';
import { AppLink } from '../../components/ui/AppLink';
import { useCursorList } from '../../hooks/useCursorList';
import { useInfiniteScroll } from '../../hooks/useInfiniteScroll';
import { usersApi, type Connection } from './usersApi';
import { EmptyState } from '../../components/ui/EmptyState';
import { Avatar } from '../../components/ui/Avatar';
import { PersonName } from '../../components/ui/PersonName';
import { Skeleton } from '../../components/ui/Skeleton';
import { Spinner } from '../../components/ui/Spinner';
import { appTheme } from '../../themes';
import { links } from '../../lib/pages';

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 8px;
  @media (min-width: 768px) { grid-template-columns: 1fr 1fr; }
  a {
    display: flex;
    align-items: center;
    gap: 12px;
    padding: 12px;
    border-radius: ${appTheme.radius.md};
    background: ${appTheme.color.surface};
    border: 1px solid ${appTheme.color.border};
    color: ${appTheme.color.text};
    text-decoration: none;
    &:hover { border-color: ${appTheme.color.accent}; }
  }
  strong { display: block; overflow-wrap: anywhere; }
  span.desc { display: block; font-size: 13px; color: ${appTheme.color.textMuted}; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
`;

/** Followers or following of a user, paged by the server's cursor. */
export function ConnectionList({ username, kind }: { username: string; kind: Connection }) {
  const first = useCallback(() => usersApi.connections(username, kind), [username, kind]);
  const { items, loading, error, hasMore, loadMore } = useCursorList(first, usersApi.connectionsPage);
  const sentinel = useInfiniteScroll(loadMore, hasMore && !loading);

  if (loading && items.length === 0) {
    return (
      <List aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <li key={i}>
            <Skeleton $h="66px" />
          </li>
        ))}
      </List>
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
      <List>
        {items.map((person) => (
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
          </li>
        ))}
      </List>
      <div ref={sentinel} style={{ display: 'flex', justifyContent: 'center', padding: 16 }}>
        {loading && <Spinner />}
      </div>
    </>
  );
}
