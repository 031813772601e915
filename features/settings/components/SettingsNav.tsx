import { useEffect } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { media } from '../../../styles/breakpoints';
import { appTheme } from '../../../themes';
import { SETTINGS_NAV, SETTINGS_SECTIONS } from '../lib/sections';

/**
 * The settings page's frame (issue 68, item 16: one page of many sections): from lg the section
 * list is a sticky column beside them; below, a compact list of links above them.
 */
export const SettingsLayout = styled.div`
  max-width: 720px;
  margin: 0 auto;
  padding: 24px 16px 64px;
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  section[id] { scroll-margin-top: calc(var(--navbar-height) + 12px); }
  ${media.md} { padding-top: 36px; }
  ${media.lg} {
    max-width: 952px;
    grid-template-columns: 200px minmax(0, 720px);
    column-gap: 32px;
    > nav { grid-column: 1; grid-row: 1 / span 2; }
    > :not(nav) { grid-column: 2; }
  }
`;

const Nav = styled.nav`
  margin: 0 0 20px;
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  a {
    display: inline-flex;
    align-items: center;
    min-height: 32px;
    padding: 0 12px;
    border: 1px solid ${appTheme.color.border};
    border-radius: ${appTheme.radius.pill};
    color: ${appTheme.color.text};
    font-size: 14px;
    font-weight: 600;
    text-decoration: none;
    &:hover { background: ${appTheme.color.surfaceRaised}; }
  }
  ${media.lg} {
    position: sticky;
    top: calc(var(--navbar-height) + 24px);
    align-self: start;
    margin: 0;
    ul { display: grid; gap: 2px; }
    a { display: flex; min-height: 36px; border-color: transparent; border-radius: ${appTheme.radius.sm}; }
  }
`;

/**
 * A deep link to a section (`/settings#data`): the lower sections arrive after the first load (their
 * own chunk), and each grows as its list is read, so the target is shown when it appears and again
 * as the page changes around it, until the person scrolls, types or taps, or 10 s have passed.
 */
function useHashTarget() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    const show = () => document.getElementById(id)?.scrollIntoView();
    const observer = new MutationObserver(show);
    observer.observe(document.body, { childList: true, subtree: true });
    const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
      for (const type of inputs) window.removeEventListener(type, stop, true);
    };
    const timer = window.setTimeout(stop, 10_000);
    for (const type of inputs) window.addEventListener(type, stop, { capture: true, passive: true });
    return stop;
  }, []);
}

/** The list of the settings page's sections, each a link to its place on the page. */
export function SettingsNav() {
  useHashTarget();
  const t = useTranslations('settings');
  // Each label named whole, so the catalogue test sees every key used.
  const labels: Record<(typeof SETTINGS_NAV)[number], string> = {
    profile: t('nav.profile'),
    account: t('nav.account'),
    theme: t('nav.theme'),
    media: t('nav.media'),
    notifications: t('nav.notifications'),
    privacy: t('nav.privacy'),
    sessions: t('nav.sessions'),
    apps: t('nav.apps'),
    blocked: t('nav.blocked'),
    tags: t('nav.tags'),
    twofactor: t('nav.twofactor'),
    data: t('nav.data'),
    moving: t('nav.moving'),
  };
  return (
    <Nav aria-label={t('nav.label')}>
      <ul>
        {SETTINGS_NAV.map((section) => (
          <li key={section}>
            <a href={`#${SETTINGS_SECTIONS[section]}`}>{labels[section]}</a>
          </li>
        ))}
      </ul>
    </Nav>
  );
}
