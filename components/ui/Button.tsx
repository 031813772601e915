import styled, { css } from 'styled-components';
import { AppLink } from './AppLink';
import { appTheme } from '../../themes';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

interface StyleProps {
  $variant?: ButtonVariant;
  $size?: 'sm' | 'md';
  $block?: boolean;
}

const buttonStyles = css<StyleProps>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  min-height: ${({ $size }) => ($size === 'sm' ? '34px' : '42px')};
  padding: 0 ${({ $size }) => ($size === 'sm' ? '12px' : '18px')};
  width: ${({ $block }) => ($block ? '100%' : 'auto')};
  border-radius: ${appTheme.radius.pill};
  border: 1px solid transparent;
  font-weight: 600;
  font-size: ${({ $size }) => ($size === 'sm' ? '14px' : '15px')};
  text-decoration: none;
  white-space: nowrap;
  cursor: pointer;
  transition: background-color 0.15s, border-color 0.15s, transform 0.1s;
  &:active:not(:disabled) { transform: scale(0.98); }
  &:disabled { cursor: not-allowed; opacity: 0.55; }
  ${({ $variant = 'primary', theme }) => {
    switch ($variant) {
      case 'primary':
        return css`
          background: ${theme.color.accent};
          color: ${theme.color.onAccent};
          &:hover:not(:disabled) { filter: brightness(1.08); }
        `;
      case 'secondary':
        return css`
          background: ${theme.color.surfaceRaised};
          color: ${theme.color.text};
          border-color: ${theme.color.border};
          &:hover:not(:disabled) { border-color: ${theme.color.textMuted}; }
        `;
      case 'danger':
        return css`
          background: transparent;
          color: ${theme.color.danger};
          border-color: ${theme.color.danger};
          &:hover:not(:disabled) { background: ${theme.color.dangerSoft}; }
        `;
      default:
        return css`
          background: transparent;
          color: ${theme.color.text};
          &:hover:not(:disabled) { background: ${theme.color.surfaceRaised}; }
        `;
    }
  }}
`;

export const Button = styled.button.attrs<{ type?: string }>((props) => ({ type: props.type ?? 'button' }))<StyleProps>`
  ${buttonStyles}
`;

export const ButtonLink = styled(AppLink)<StyleProps>`
  ${buttonStyles}
`;

export const IconButton = styled.button.attrs({ type: 'button' })`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 40px;
  height: 40px;
  padding: 0;
  border-radius: 50%;
  border: none;
  background: transparent;
  color: ${appTheme.color.text};
  cursor: pointer;
  &:hover { background: ${appTheme.color.surfaceRaised}; }
`;
