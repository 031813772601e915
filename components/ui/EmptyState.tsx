import styled from 'styled-components';
import { appTheme } from '../../themes';

/** A dashed box for an empty or failed list: an icon, a title (h2) and a line of text. */
export const EmptyState = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 10px;
  padding: 48px 20px;
  text-align: center;
  border: 1px dashed ${appTheme.color.border};
  border-radius: ${appTheme.radius.lg};
  color: ${appTheme.color.textMuted};
  /* A name from a hand-typed URL may be one long word: it breaks rather than widen the page. */
  h2 { max-width: 100%; font-size: 18px; color: ${appTheme.color.text}; overflow-wrap: anywhere; }
  p { margin: 0; max-width: 360px; overflow-wrap: anywhere; }
`;
