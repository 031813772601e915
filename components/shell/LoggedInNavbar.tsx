import { useRouter } from 'next/router';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'use-intl/react';
import styled from 'styled-components';
import { AppLink } from '../ui/AppLink';
import type { User } from '../../lib/types';
import { useNavbarScroll } from '../../hooks/useNavbarScroll';
import { belowMd, media } from '../../styles/breakpoints';
import { BREAKPOINTS } from '../../lib/limits';
import { Button, IconButton } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { AvatarDropdown } from './AvatarDropdown';
import { Logo } from './Logo';
import { NavbarFrame, Spacer } from './NavbarFrame';
import { Sidebar } from './Sidebar';
import { TagSearch } from '../../features/search';
import { OPEN_SEARCH_EVENT } from '../../lib/openSearch';
import { LiveNotifications, NotificationBell, NotificationsLink } from '../../features/notifications';
import { appTheme } from '../../themes';
import { links } from '../../lib/pages';

/**
 * Below lg the bar has no room for the 400px search beside the links, Create post (with its word),
 * the bell and the avatar: there the search is a button opening it as a strip under the bar, as on
 * a phone (issue 68, item 25: at 768px the wordmark and Create post's word had been dropped instead).
 */
const belowLg = `@media (max-width: ${BREAKPOINTS.lg - 1}px)`;

/**
 * From lg the search is the spec's 400px inline; with the wordmark and Create post's word the bar
 * has room for it from 1,140px (measured: 351px at 1,024), so below that the links and the
 * controls sit closer (the 49px the search lacked).
 */
const belowFullBar = `@media (min-width: ${BREAKPOINTS.lg}px) and (max-width: 1139px)`;

const DesktopOnly = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  ${belowMd} { display: none; }
  ${belowFullBar} {
    gap: 2px;
    > button { padding: 0 8px; }
  }
`;

const MobileOnly = styled.div`
  display: flex;
  align-items: center;
  ${media.md} { display: none; }
`;

/**
 * The one tag search: inline in the bar from lg up; below lg it is hidden until the search button
 * opens it as a strip under the bar (the frame's transform makes `fixed` relative to the bar).
 */
const SearchSlot = styled.div<{ $open: boolean }>`
  display: flex;
  /* Sized from the search's own 400px (spec section 9), sharing only what is left with the spacer. */
  flex: 1 1 auto;
  justify-content: center;
  min-width: 0;
  ${belowLg} {
    display: ${({ $open }) => ($open ? 'flex' : 'none')};
    position: fixed;
    top: var(--navbar-height);
    inset-inline-start: 0;
    inset-inline-end: 0;
    z-index: 49;
    padding: 8px 12px;
    background: ${appTheme.color.surface};
    border-bottom: 1px solid ${appTheme.color.border};
    form { flex: 1; }
  }
  /* No room for the spacer either: without it, one gap less. */
  ${belowFullBar} { & + * { display: none; } }
`;

/** The search's button, where the search is a strip (below lg). */
const SearchToggle = styled.div`
  display: flex;
  ${media.lg} { display: none; }
`;

const NavLinks = styled.ul`
  display: flex;
  gap: 2px;
  list-style: none;
  margin: 0;
  padding: 0;
  a {
    display: inline-flex;
    align-items: center;
    height: 34px;
    padding: 0 12px;
    border-radius: ${appTheme.radius.pill};
    color: ${appTheme.color.text};
    text-decoration: none;
    font-weight: 600;
    font-size: 14px;
    &:hover { background: ${appTheme.color.surfaceRaised}; }
    &[aria-current='page'] { background: ${appTheme.color.accentSoft}; }
    ${belowFullBar} { padding: 0 4px; }
  }
`;

interface LoggedInNavbarProps {
  user: User;
  onCreatePost: () => void;
  onLogout: () => void;
}

export function LoggedInNavbar({ user, onCreatePost, onLogout }: LoggedInNavbarProps) {
  const router = useRouter();
  const t = useTranslations('shell');
  const isProfilePage = router.pathname.startsWith('/profile');
  const { hidden, translucent } = useNavbarScroll(isProfilePage);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const searchSlot = useRef<HTMLDivElement>(null);
  const searchId = useId();
  // Opening the search on a phone puts the keyboard in it (it sits before the button in the DOM).
  useEffect(() => {
    if (searchOpen) searchSlot.current?.querySelector('input')?.focus();
  }, [searchOpen]);
  // A page's "Search" (a post or a person not found: `openSearch`) opens it and focuses it, at any width.
  useEffect(() => {
    const open = () => {
      setSearchOpen(true);
      searchSlot.current?.querySelector('input')?.focus();
    };
    window.addEventListener(OPEN_SEARCH_EVENT, open);
    return () => window.removeEventListener(OPEN_SEARCH_EVENT, open);
  }, []);
  const profileHref = links.profile(user.username);
  const isHidden = hidden && !sidebarOpen && !searchOpen;
  const isTranslucent = translucent && !searchOpen;
  const current = (href: string) => (router.asPath.split('?')[0] === href ? 'page' : undefined);

  return (
    <>
      <NavbarFrame
        $hidden={isHidden}
        $translucent={isTranslucent}
        data-hidden={isHidden}
        data-translucent={isTranslucent}
        data-testid="navbar"
      >
        <MobileOnly>
          <IconButton aria-label={t('openMenu')} aria-expanded={sidebarOpen} onClick={() => setSidebarOpen(true)}>
            <Icon name="menu" />
          </IconButton>
        </MobileOnly>
        <Logo href={links.home()} />
        <SearchSlot ref={searchSlot} id={searchId} $open={searchOpen} data-open={searchOpen}>
          <TagSearch onSearch={() => setSearchOpen(false)} />
        </SearchSlot>
        <Spacer />
        <SearchToggle>
          <IconButton
            aria-label={t('searchByTags')}
            aria-expanded={searchOpen}
            aria-controls={searchId}
            onClick={() => setSearchOpen(!searchOpen)}
          >
            <Icon name="search" />
          </IconButton>
        </SearchToggle>
        <DesktopOnly>
          <nav aria-label={t('mainNav')}>
            <NavLinks>
              <li>
                <AppLink href={links.home()} aria-current={current(links.home())}>
                  {t('home')}
                </AppLink>
              </li>
              <li>
                {/* Icon-only: the bar keeps the search's 400px from lg (layout.e2e.ts). */}
                <AppLink
                  href={links.explore()}
                  aria-label={t('explore')}
                  title={t('explore')}
                  aria-current={current(links.explore())}
                >
                  <Icon name="compass" size={18} />
                </AppLink>
              </li>
              <li>
                <AppLink href={links.contact()} aria-current={current(links.contact())}>
                  {t('contact')}
                </AppLink>
              </li>
              <li>
                <AppLink href={profileHref} aria-current={current(profileHref)}>
                  {t('profile')}
                </AppLink>
              </li>
            </NavLinks>
          </nav>
          <Button $size="sm" onClick={onCreatePost}>
            <Icon name="plus" size={16} /> {t('createPost')}
          </Button>
          <NotificationBell />
          <AvatarDropdown user={user} onLogout={onLogout} />
        </DesktopOnly>
        <MobileOnly>
          <NotificationsLink current={current(links.notifications()) === 'page'} />
        </MobileOnly>
      </NavbarFrame>
      <LiveNotifications />
      {sidebarOpen && (
        <Sidebar user={user} onClose={() => setSidebarOpen(false)} onCreatePost={onCreatePost} onLogout={onLogout} />
      )}
    </>
  );
}

export default LoggedInNavbar;
