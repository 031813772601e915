import styled from 'styled-components';
import { AppLink } from '../ui/AppLink';
import { appTheme } from '../../themes';

const LogoLink = styled(AppLink)`
  display: inline-flex;
  align-items: center;
  gap: 8px;
  color: ${appTheme.color.text};
  font-weight: 800;
  font-size: 19px;
  letter-spacing: -0.02em;
  text-decoration: none;
  border-radius: 8px;
`;

const Mark = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 28px;
  height: 28px;
  border-radius: 8px;
  background: ${appTheme.color.accent};
  color: ${appTheme.color.onAccent};
`;

/**
 * `collapsible`: the wordmark hidden visually (still the link's name) on a narrow phone, where a
 * visitor's navbar holds two buttons whose words are longer in most languages than in English.
 */
export function Logo({ href, collapsible = false }: { href: string; collapsible?: boolean }) {
  return (
    <LogoLink href={href}>
      <Mark aria-hidden="true">
        <svg
          width="18"
          height="18"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.4"
          strokeLinejoin="round"
          strokeLinecap="round"
        >
          <rect x="3" y="3" width="18" height="18" rx="4" />
          <circle cx="9" cy="9" r="1.6" fill="currentColor" />
          <path d="m4 18 5-5 4 4 3-3 4 4" />
        </svg>
      </Mark>
      <span className={collapsible ? 'visually-hidden-narrow' : undefined}>Posts</span>
    </LogoLink>
  );
}
