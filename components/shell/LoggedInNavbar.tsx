import { useRouter } from 'next/router';
import { useEffect, useId, useRef, useState } from 'react';
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
 * Between md and lg the bar is too narrow for the search, the links, Create post, the bell and the
 * avatar: the search takes the spacer's share, and Create post and the logo show their icons (their
 * names stay).
 */
const midWidth = `@media (min-width: ${BREAKPOINTS.md}px) and (max-width: ${BREAKPOINTS.lg - 1}px)`;

const DesktopOnly = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  ${belowMd} { display: none; }
  ${midWidth} { gap: 4px; }
`;

const MobileOnly = styled.div`
  display: flex;
  align-items: center;
  ${media.md} { display: none; }
`;

/**
 * The one tag search: inline in the bar from md up; below md it is hidden until the search button
 * opens it as a strip under the bar (the frame's transform makes `fixed` relative to the bar).
 */
const SearchSlot = styled.div<{ $open: boolean }>`
  display: flex;
  /* Sized from the search's own 400px (spec section 9), sharing only what is left with the spacer. */
  flex: 1 1 auto;
  justify-content: center;
  min-width: 0;
  ${belowMd} {
    display: ${({ $open }) => ($open ? 'flex' : 'none')};
    position: fixed;
    top: var(--navbar-height);
    left: 0;
    right: 0;
    z-index: 49;
    padding: 8px 12px;
    background: ${appTheme.color.surface};
    border-bottom: 1px solid ${appTheme.color.border};
    form { flex: 1; }
  }
`;

/**
 * From lg up the search is the spec's 400px; with Create post's word beside it the bar fits only
 * from 1,140px (measured: 351px at 1,024). Below that the button shows its icon (its name stays).
 */
const FULL_BAR_MIN_WIDTH_PX = 1140;
const belowFullBar = `@media (min-width: ${BREAKPOINTS.md}px) and (max-width: ${FULL_BAR_MIN_WIDTH_PX - 1}px)`;

/** The logo's word takes no room between md and lg; it stays the link's name (here, not in Logo: Logo is on every page). */
const LogoSlot = styled.span`
  display: contents;
  ${midWidth} {
    a { font-size: 0; gap: 0; }
  }
`;

const BarSpacer = styled(Spacer)`
  ${midWidth} { display: none; }
`;

const CreatePostLabel = styled.span`
  ${belowFullBar} {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip: rect(0, 0, 0, 0);
    white-space: nowrap;
  }
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
    /* The search's placeholder needs the room (it was cut to "Search by tags or @na" at 768px). */
    ${midWidth} { padding: 0 6px; }
  }
`;

interface LoggedInNavbarProps {
  user: User;
  onCreatePost: () => void;
  onLogout: () => void;
}

export function LoggedInNavbar({ user, onCreatePost, onLogout }: LoggedInNavbarProps) {
  const router = useRouter();
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
          <IconButton aria-label="Open menu" aria-expanded={sidebarOpen} onClick={() => setSidebarOpen(true)}>
            <Icon name="menu" />
          </IconButton>
        </MobileOnly>
        <LogoSlot>
          <Logo href={links.home()} />
        </LogoSlot>
        <SearchSlot ref={searchSlot} id={searchId} $open={searchOpen} data-open={searchOpen}>
          <TagSearch onSearch={() => setSearchOpen(false)} />
        </SearchSlot>
        <BarSpacer />
        <DesktopOnly>
          <nav aria-label="Main">
            <NavLinks>
              <li>
                <AppLink href={links.home()} aria-current={current(links.home())}>
                  Home
                </AppLink>
              </li>
              <li>
                <AppLink href={links.contact()} aria-current={current(links.contact())}>
                  Contact
                </AppLink>
              </li>
              <li>
                <AppLink href={profileHref} aria-current={current(profileHref)}>
                  Profile
                </AppLink>
              </li>
            </NavLinks>
          </nav>
          <Button $size="sm" onClick={onCreatePost}>
            <Icon name="plus" size={16} /> <CreatePostLabel>Create post</CreatePostLabel>
          </Button>
          <NotificationBell />
          <AvatarDropdown user={user} onLogout={onLogout} />
        </DesktopOnly>
        <MobileOnly>
          <IconButton
            aria-label="Search by tags"
            aria-expanded={searchOpen}
            aria-controls={searchId}
            onClick={() => setSearchOpen(!searchOpen)}
          >
            <Icon name="search" />
          </IconButton>
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
