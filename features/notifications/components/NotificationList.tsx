import styled from 'styled-components';
import { AppLink } from '../../../components/ui/AppLink';
import { Avatar } from '../../../components/ui/Avatar';
import { PersonName } from '../../../components/ui/PersonName';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { links } from '../../../lib/pages';
import type { AppNotification } from '../../../lib/types';
import { appTheme } from '../../../themes';
import { useTranslations } from 'use-intl/react';
import { notificationKind } from '../lib/describeNotification';
import { FollowButton } from '../../people';

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 4px;
  /* A follow's row holds its Follow back button beside the link (no button inside a link). */
  li { display: flex; align-items: center; gap: 8px; }
  li > a { flex: 1; min-width: 0; }
`;

const Row = styled(AppLink)<{ $unread: boolean }>`
  display: flex;
  align-items: center;
  gap: 12px;
  padding: 10px 12px;
  border-radius: ${appTheme.radius.md};
  background: ${({ $unread }) => ($unread ? appTheme.color.accentSoft : 'transparent')};
  color: ${appTheme.color.text};
  text-decoration: none;
  &:hover { background: ${appTheme.color.surfaceRaised}; }
`;

const Text = styled.span`
  flex: 1;
  min-width: 0;
  display: grid;
  gap: 2px;
  font-size: 14px;
  line-height: 1.35;
  strong { overflow-wrap: anywhere; }
  time { font-size: 12px; color: ${appTheme.color.textMuted}; }
`;

const Quote = styled.span`
  color: ${appTheme.color.textMuted};
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
`;

const Thumb = styled.img`
  flex: none;
  width: 44px;
  height: 44px;
  border-radius: 8px;
  object-fit: cover;
  background: ${appTheme.color.surfaceRaised};
`;

const Dot = styled.span`
  flex: none;
  width: 8px;
  height: 8px;
  border-radius: 50%;
  background: ${appTheme.color.accent};
`;

/**
 * Where a notification leads: the post (its comments for a comment), the follow requests for a
 * request (issue 70), else the actor's profile.
 */
export function notificationHref(notification: AppNotification): string {
  const { post, comment, actor } = notification;
  if (notification.type === 'followRequest') return `${links.notifications()}#follow-requests`;
  if (!post) return links.profile(actor.username);
  return comment ? `${links.post(post._id)}#comments` : links.post(post._id);
}

/** Notifications newest first: the actor's avatar, what they did, the post's thumbnail. */
export function NotificationList({ items, onNavigate }: { items: AppNotification[]; onNavigate?: () => void }) {
  const t = useTranslations('notifications');
  return (
    <List>
      {items.map((notification) => (
        <li key={notification.id}>
          <Row
            href={notificationHref(notification)}
            onClick={onNavigate}
            $unread={!notification.read}
            data-unread={!notification.read}
          >
            <Avatar src={notification.actor.avatar} name={notification.actor.username} size={40} />
            <Text>
              <span>
                {t.rich('sentence', {
                  kind: notificationKind(notification),
                  username: notification.actor.username,
                  name: () => (
                    <strong>
                      <PersonName username={notification.actor.username} />
                    </strong>
                  ),
                })}
                {!notification.read && <span className="visually-hidden">{t('unreadMark')}</span>}
              </span>
              {notification.comment && <Quote dir="auto">“{notification.comment.message}”</Quote>}
              <RelativeTime iso={notification.createdAt} />
            </Text>
            {notification.post && <Thumb src={notification.post.image} alt="" loading="lazy" decoding="async" />}
            {!notification.read && <Dot aria-hidden="true" />}
          </Row>
          {notification.type === 'follow' && (
            <FollowButton
              username={notification.actor.username}
              followedByMe={notification.actor.followedByMe}
              followBack
            />
          )}
        </li>
      ))}
    </List>
  );
}
