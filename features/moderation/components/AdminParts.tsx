/** The admin panels' shared parts (issues 32, 73): a one-line form, a list of rows with a button, a problem. */
import styled from 'styled-components';
import { fieldSurface } from '../../../components/ui/TextField';
import { appTheme } from '../../../themes';

/** A panel's one-line form: fields and a button, their bottoms lined up. */
export const AdminForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: flex-end;
  margin: 12px 0 16px;
  label { display: grid; gap: 6px; font-weight: 600; font-size: 14px; }
  label:first-child { flex: 1 1 200px; }
  /* The field, the list and the button one height: their labels and bottoms line up. */
  input,
  select {
    box-sizing: border-box;
    min-height: 42px;
    padding: 8px 12px;
    ${fieldSurface}
  }
`;

/** A panel's list: each row what it is (`.what`, `.meta` under it) and its button beside. */
export const AdminList = styled.ul`
  display: grid;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
  li {
    display: flex;
    gap: 12px;
    align-items: center;
    padding: 10px 12px;
    border: 1px solid ${appTheme.color.border};
    border-radius: ${appTheme.radius.md};
  }
  /* The subject on a line of its own, what it is under it; the button stays beside both. */
  .what { flex: 1; min-width: 0; display: grid; gap: 2px; overflow-wrap: anywhere; }
  .meta { font-size: 13px; color: ${appTheme.color.textMuted}; }
  button { flex: none; }
`;

export const Problem = styled.p`
  margin: 0 0 12px;
  color: ${appTheme.color.danger};
`;
