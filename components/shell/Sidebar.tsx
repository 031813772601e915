import { useRef } from 'react';
import { useTranslations } from 'use-intl/react';
import styled, { keyframes } from 'styled-components';
import { AppLink } from '../ui/AppLink';
import { SIDEBAR_MAX_WIDTH_PX } from '../../lib/limits';
import type { User } from '../../lib/types';
import { useFocusTrap } from '../../hooks/useFocusTrap';
import { useScrollLock } from '../../hooks/useScrollLock';
import { Avatar } from '../ui/Avatar';
import { IconButton } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { AccountLinks, MenuItem } from './AccountLinks';
import { appTheme } from '../../themes';
import { links } from '../../lib/pages';
import { UnreadBadge, useUnreadCount, useUnreadLabel } from '../../features/notifications';
import { LanguagePicker } from '../../features/language';

const slide = keyframes`from { transform: translateX(-100%); } to { transform: none; }`;
/** Right to left the sidebar comes in from the right. */
const slideFromRight = keyframes`from { transform: translateX(100%); } to { transform: none; }`;

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 90;
  background: ${appTheme.color.overlay};
`;

const Panel = styled.div`
  position: fixed;
  top: 0;
  bottom: 0;
  inset-inline-start: 0;
  z-index: 91;
  width: 85vw;
  max-width: ${SIDEBAR_MAX_WIDTH_PX}px;
  display: flex;
  flex-direction: column;
  padding: 10px 12px 20px;
  background: ${appTheme.color.surface};
  border-inline-end: 1px solid ${appTheme.color.border};
  overflow-y: auto;
  animation: ${slide} 0.2s ease-out;
  html[dir='rtl'] & { animation-name: ${slideFromRight}; }
  ul { list-style: none; margin: 0; padding: 0; }
  h2 { font-size: 18px; }
`;

const Head = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  margin-bottom: 8px;
`;

const ProfileBlock = styled.div`
  margin-top: 16px;
  padding-top: 16px;
  border-top: 1px solid ${appTheme.color.border};
`;

const Identity = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  padding: 0 10px 12px;
  min-width: 0;
`;

/** The username and email beside the avatar (its rules stay off the avatar's own spans). */
const Names = styled.div`
  min-width: 0;
  strong, span { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  span { font-size: 13px; color: ${appTheme.color.textMuted}; }
`;

interface SidebarProps {
  user: User;
  onClose: () => void;
  onCreatePost: () => void;
  onLogout: () => void;
}

/** The mobile menu: Create post, Home, Notifications, Contact, then the profile block. */
export function Sidebar({ user, onClose, onCreatePost, onLogout }: SidebarProps) {
  const t = useTranslations('shell');
  const panel = useRef<HTMLDivElement>(null);
  const unread = useUnreadCount();
  const unreadLabel = useUnreadLabel();

  useScrollLock(true);
  useFocusTrap(panel, onClose);

  return (
    <>
      <Backdrop onClick={onClose} />
      <Panel ref={panel} role="dialog" aria-modal="true" aria-labelledby="sidebar-title">
        <Head>
          <h2 id="sidebar-title">{t('menu')}</h2>
          <IconButton aria-label={t('closeMenu')} onClick={onClose}>
            <Icon name="close" />
          </IconButton>
        </Head>
        <nav aria-label={t('mainNav')}>
          <ul>
            <MenuItem>
              <button
                type="button"
                onClick={() => {
                  onClose();
                  onCreatePost();
                }}
              >
                <Icon name="plus" size={18} /> {t('createPost')}
              </button>
            </MenuItem>
            <MenuItem>
              <AppLink href={links.home()} onClick={onClose}>
                <Icon name="home" size={18} /> {t('home')}
              </AppLink>
            </MenuItem>
            <MenuItem>
              <AppLink href={links.explore()} onClick={onClose}>
                <Icon name="compass" size={18} /> {t('explore')}
              </AppLink>
            </MenuItem>
            <MenuItem>
              <AppLink
                href={links.notifications()}
                onClick={onClose}
                aria-label={unread ? unreadLabel(unread) : undefined}
              >
                <Icon name="bell" size={18} /> {t('notifications')}
                <UnreadBadge inline />
              </AppLink>
            </MenuItem>
            <MenuItem>
              <AppLink href={links.contact()} onClick={onClose}>
                <Icon name="mail" size={18} /> {t('contact')}
              </AppLink>
            </MenuItem>
          </ul>
        </nav>
        <ProfileBlock>
          <Identity>
            <Avatar src={user.avatar} name={user.username} size={44} />
            <Names>
              <strong>{user.username}</strong>
              <span dir="ltr">{user.email}</span>
            </Names>
          </Identity>
          <AccountLinks
            username={user.username}
            admin={user.role === 'admin'}
            onNavigate={onClose}
            onLogout={onLogout}
          />
        </ProfileBlock>
        <LanguagePicker />
      </Panel>
    </>
  );
}
