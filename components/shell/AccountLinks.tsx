import { useTranslations } from 'use-intl/react';
import styled from 'styled-components';
import { AppLink } from '../ui/AppLink';
import { Icon } from '../ui/Icon';
import { appTheme } from '../../themes';
import { links } from '../../lib/pages';

export const MenuItem = styled.li`
  a, button {
    display: flex;
    align-items: center;
    gap: 10px;
    width: 100%;
    padding: 9px 10px;
    border: none;
    border-radius: 8px;
    background: none;
    color: ${appTheme.color.text} !important;
    text-decoration: none;
    text-align: start;
    cursor: pointer;
    &:hover { background: ${appTheme.color.surfaceRaised}; }
  }
`;

interface AccountLinksProps {
  username: string;
  /** Admins also get the admin page. */
  admin?: boolean;
  /** Closes the menu that holds the links. */
  onNavigate: () => void;
  onLogout: () => void;
}

/** Profile, Saved, Settings and Logout: the same entries in the desktop dropdown and the mobile sidebar. */
export function AccountLinks({ username, admin, onNavigate, onLogout }: AccountLinksProps) {
  const t = useTranslations('shell');
  return (
    <ul>
      <MenuItem>
        <AppLink href={links.profile(username)} onClick={onNavigate}>
          <Icon name="user" size={18} /> {t('profile')}
        </AppLink>
      </MenuItem>
      <MenuItem>
        <AppLink href={links.saved()} onClick={onNavigate}>
          <Icon name="bookmark" size={18} /> {t('saved')}
        </AppLink>
      </MenuItem>
      <MenuItem>
        <AppLink href={links.settings()} onClick={onNavigate}>
          <Icon name="settings" size={18} /> {t('settings')}
        </AppLink>
      </MenuItem>
      {admin && (
        <MenuItem>
          <AppLink href={links.admin()} onClick={onNavigate}>
            <Icon name="settings" size={18} /> {t('admin')}
          </AppLink>
        </MenuItem>
      )}
      <MenuItem>
        <button
          type="button"
          onClick={() => {
            onNavigate();
            onLogout();
          }}
        >
          <Icon name="logout" size={18} /> {t('logout')}
        </button>
      </MenuItem>
    </ul>
  );
}
