import styled, { keyframes } from 'styled-components';
import { appTheme } from '../../themes';

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.55; }
`;

export const Skeleton = styled.span<{ $w?: string; $h?: string; $round?: boolean }>`
  display: block;
  width: ${({ $w }) => $w ?? '100%'};
  height: ${({ $h }) => $h ?? '14px'};
  border-radius: ${({ $round }) => ($round ? '50%' : '6px')};
  background: ${appTheme.color.skeleton};
  animation: ${pulse} 1.4s ease-in-out infinite;
`;
