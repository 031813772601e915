import styled from 'styled-components';
import { appTheme } from '../../../themes';
import { LanguagePicker } from '../../language';

const Footer = styled.footer`
  max-width: 1120px;
  margin: 0 auto;
  padding: 8px 20px 40px;
  border-top: 1px solid ${appTheme.color.border};
`;

/** Below the hero: the language, which a visitor chooses before signing up. */
export function LandingFooter() {
  return (
    <Footer>
      <LanguagePicker />
    </Footer>
  );
}
