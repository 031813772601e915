import styled from 'styled-components';
import { appTheme } from '../../../themes';

/** A settings panel's list of rows: the devices signed in, the people blocked or muted. */
export const SettingsList = styled.ul`
  list-style: none;
  margin: 0 0 12px;
  padding: 0;
  display: grid;
  gap: 10px;
`;

/** One row of a SettingsList: what it is, then its action at the end. */
export const SettingsItem = styled.li`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  padding: 10px 14px;
  border: 1px solid ${appTheme.color.border};
  border-radius: ${appTheme.radius.md};
`;
