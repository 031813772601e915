import styled from 'styled-components';
import { appTheme } from '../../themes';

/** A titled surface used by forms and settings sections. */
export const Panel = styled.section`
  padding: 20px;
  border-radius: ${appTheme.radius.lg};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  > h2 { font-size: 18px; margin-bottom: 4px; }
  > p.lead { margin: 0 0 18px; color: ${appTheme.color.textMuted}; font-size: 14px; }
  @media (min-width: 768px) { padding: 28px; }
`;

export const Stack = styled.div<{ $gap?: number }>`
  display: grid;
  gap: ${({ $gap }) => $gap ?? 16}px;
`;

export const PageContainer = styled.div<{ $width?: number }>`
  max-width: ${({ $width }) => $width ?? 640}px;
  margin: 0 auto;
  padding: 24px 16px 64px;
  @media (min-width: 768px) { padding-top: 36px; }
`;

export const PageTitle = styled.h1`
  font-size: 26px;
  letter-spacing: -0.02em;
  margin-bottom: 6px;
`;

export const PageLead = styled.p`
  margin: 0 0 24px;
  color: ${appTheme.color.textMuted};
`;
