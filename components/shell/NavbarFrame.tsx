import styled, { css } from 'styled-components';
import { appTheme } from '../../themes';

/** The fixed bar both navbars sit in: 44px high, 58px from the large breakpoint. */
export const NavbarFrame = styled.header<{ $hidden?: boolean; $translucent?: boolean }>`
  position: fixed;
  top: 0;
  inset-inline-start: 0;
  inset-inline-end: 0;
  z-index: 50;
  height: var(--navbar-height);
  display: flex;
  align-items: center;
  gap: 12px;
  padding: 0 12px;
  background: ${appTheme.color.navbar};
  border-bottom: 1px solid ${appTheme.color.border};
  backdrop-filter: saturate(160%) blur(12px);
  transition: transform 0.25s ease, background-color 0.25s ease, border-color 0.25s ease;
  transform: translateY(${({ $hidden }) => ($hidden ? '-100%' : '0')});
  ${({ $translucent }) =>
    $translucent &&
    css`
      background: ${appTheme.color.navbarTranslucent};
      border-bottom-color: transparent;
      backdrop-filter: blur(4px);
    `}
  @media (min-width: 768px) { padding: 0 20px; }
`;

export const Spacer = styled.div`
  flex: 1;
`;
