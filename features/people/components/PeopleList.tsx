/**
 * People, each a card with their avatar, name and description linking to their profile, and a
 * Follow / Following button (not beside oneself): followers, following, a post's likers.
 */
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../components/ui/AppLink';
import { Avatar } from '../../../components/ui/Avatar';
import { PersonName } from '../../../components/ui/PersonName';
import { links } from '../../../lib/pages';
import type { PersonResult } from '../../../lib/types';
import { useAppSelector } from '../../../store/hooks';
import { appTheme } from '../../../themes';
import { selectUser } from '../../auth';
import { Button } from '../../../components/ui/Button';
import { FollowButton } from './FollowButton';

export const PeopleGrid = styled.ul<{ $columns?: boolean }>`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 8px;
  @media (min-width: 768px) { grid-template-columns: ${({ $columns = true }) => ($columns ? '1fr 1fr' : '1fr')}; }
  li {
    display: flex;
    align-items: center;
    gap: 8px;
    padding-inline-end: 12px;
    border-radius: ${appTheme.radius.md};
    background: ${appTheme.color.surface};
    border: 1px solid ${appTheme.color.border};
    &:hover { border-color: ${appTheme.color.accent}; }
  }
  a {
    flex: 1;
    min-width: 0;
    display: flex;
    align-items: center;
    gap: 12px;
    padding: 12px;
    color: ${appTheme.color.text};
    text-decoration: none;
  }
  strong { display: block; overflow-wrap: anywhere; }
  span.desc { display: block; font-size: 13px; color: ${appTheme.color.textMuted}; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
`;

/** Follow and Remove side by side; one above the other on a phone, so the name keeps its width. */
const Actions = styled.div`
  display: flex;
  flex: none;
  gap: 6px;
  @media (max-width: 420px) { flex-direction: column; align-items: stretch; }
`;

interface PeopleListProps {
  people: PersonResult[];
  /** Two columns on wide screens (a profile's lists); one in a dialog. */
  columns?: boolean;
  /** Called when a person's link is followed (a dialog closes). */
  onOpen?: () => void;
  /** A person followed or unfollowed from the list (the list's cache keeps it). */
  onFollowChange?: (person: PersonResult, followed: boolean) => void;
  /** The viewer's own followers (issue 70): each may be removed, without a block. */
  onRemove?: (person: PersonResult) => void;
}

export function PeopleList({ people, columns, onOpen, onFollowChange, onRemove }: PeopleListProps) {
  const me = useAppSelector(selectUser);
  const t = useTranslations('people');
  return (
    <PeopleGrid $columns={columns}>
      {people.map((person) => (
        <li key={person._id}>
          <AppLink href={links.profile(person.username)} onClick={onOpen}>
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
          <Actions>
            {me && me._id !== person._id && (
              <FollowButton
                username={person.username}
                followedByMe={person.followedByMe}
                requested={person.followRequestedByMe === true}
                onChange={onFollowChange && ((followed) => onFollowChange(person, followed))}
              />
            )}
            {onRemove && (
              <Button
                type="button"
                $size="sm"
                $variant="ghost"
                aria-label={t('removeFollowerLabel', { username: person.username })}
                onClick={() => onRemove(person)}
              >
                {t('removeFollower')}
              </Button>
            )}
          </Actions>
        </li>
      ))}
    </PeopleGrid>
  );
}
