import { lazy, Suspense, useCallback, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../components/ui/AppLink';
import { IconButton } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { useDismiss } from '../../../hooks/useClickOutside';
import { DROPDOWN_WIDTH_PX } from '../../../lib/limits';
import { links } from '../../../lib/pages';
import { appTheme } from '../../../themes';
import { useUnreadCount } from '../hooks/useUnreadCount';
import { useUnreadLabel } from '../lib/describeNotification';

// The list and its reads load when the bell is first pointed at or opened, not with the navbar.
const loadPanel = () => import('./NotificationPanel');
const NotificationPanel = lazy(loadPanel);

const Wrap = styled.div`
  position: relative;
`;

const Bell = styled(IconButton)`
  position: relative;
  &[aria-expanded='true'] { background: ${appTheme.color.accentSoft}; }
`;

const BellLink = styled(AppLink)`
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 40px;
  height: 40px;
  border-radius: 50%;
  color: ${appTheme.color.text};
  &:hover { background: ${appTheme.color.surfaceRaised}; }
  &[aria-current='page'] { background: ${appTheme.color.accentSoft}; }
`;

const Count = styled.span<{ $inline: boolean }>`
  position: ${({ $inline }) => ($inline ? 'static' : 'absolute')};
  top: 2px;
  inset-inline-end: 0;
  margin-inline-start: ${({ $inline }) => ($inline ? 'auto' : '0')};
  min-width: 18px;
  height: 18px;
  padding: 0 5px;
  border-radius: ${appTheme.radius.pill};
  /* The theme's accent pair: its contrast holds in every theme (a light red under white did not). */
  background: ${appTheme.color.accent};
  color: ${appTheme.color.onAccent};
  box-shadow: 0 0 0 2px ${appTheme.color.surface};
  font-size: 11px;
  font-weight: 700;
  line-height: 18px;
  text-align: center;
  pointer-events: none;
`;

const Dropdown = styled.div`
  position: absolute;
  inset-inline-end: 0;
  top: calc(100% + 8px);
  width: ${DROPDOWN_WIDTH_PX + 120}px;
  padding: 8px;
  border-radius: ${appTheme.radius.md};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  box-shadow: ${appTheme.shadow};
  color: ${appTheme.color.text};
`;

/**
 * The unread count as the badge draws it, over the bell or (`inline`) at the end of a menu entry;
 * the bell's or the entry's name says it to screen readers.
 */
export function UnreadBadge({ inline = false }: { inline?: boolean }) {
  const unread = useUnreadCount();
  if (unread === 0) return null;
  return (
    <Count aria-hidden="true" data-testid="unread-badge" $inline={inline}>
      {unread > 99 ? '99+' : unread}
    </Count>
  );
}

/** The desktop bell: the badge, and a dropdown of the newest notifications (opening it marks them read). */
export function NotificationBell() {
  const unread = useUnreadCount();
  const unreadLabel = useUnreadLabel();
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = useCallback(() => {
    setOpen(false);
    // Escape from inside the panel leaves the keyboard on the bell, not on the page's start.
    if (wrap.current?.contains(document.activeElement)) button.current?.focus();
  }, []);
  useDismiss(wrap, open, close);

  return (
    <Wrap ref={wrap}>
      <Bell
        ref={button}
        aria-label={unreadLabel(unread)}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
      >
        <Icon name="bell" />
        <UnreadBadge />
      </Bell>
      {open && (
        <Dropdown id={id} role="region" aria-labelledby={`${id}-title`}>
          <Suspense fallback={<Spinner />}>
            <NotificationPanel onClose={close} titleId={`${id}-title`} />
          </Suspense>
        </Dropdown>
      )}
    </Wrap>
  );
}

/**
 * The phone's bell: a link to the notifications page, with the badge. Its name is its content, not
 * an `aria-label`: "Notifications, " and " unread" for screen readers around the badge's own text (`linkName`),
 * so the number a person sees (and says to voice control: "1", "99+") is in the link's name (WCAG
 * 2.5.3, label in name; issue 68, item 7). With nothing unread it is "Notifications".
 */
export function NotificationsLink({ current }: { current?: boolean }) {
  const unread = useUnreadCount();
  const t = useTranslations('notifications');
  const shown = unread > 99 ? '99+' : String(unread);
  return (
    <BellLink href={links.notifications()} aria-current={current ? 'page' : undefined}>
      <Icon name="bell" />
      {t.rich('linkName', {
        count: unread,
        shown,
        hidden: (chunks) => <span className="visually-hidden">{chunks}</span>,
        badge: (chunks) => (
          <Count data-testid="unread-badge" $inline={false}>
            {chunks}
          </Count>
        ),
      })}
    </BellLink>
  );
}
