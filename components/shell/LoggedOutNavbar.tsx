import { useRouter } from 'next/router';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { ButtonLink } from '../ui/Button';
import { Logo } from './Logo';
import { NavbarFrame, Spacer } from './NavbarFrame';
import { links } from '../../lib/pages';

const Actions = styled.nav`
  display: flex;
  gap: 8px;
  /* The smallest phones: French, Spanish and German buttons are wider than the bar otherwise. */
  @media (max-width: 359px) {
    gap: 4px;
    & > a {
      padding-inline: 8px;
      font-size: 13px;
    }
  }
`;

/** Logo plus 'Sign in' and 'Create Account'; each page hides the button that leads to itself. */
export function LoggedOutNavbar() {
  const { pathname } = useRouter();
  const t = useTranslations('shell');
  return (
    <NavbarFrame>
      <Logo href={links.landing()} collapsible />
      <Spacer />
      <Actions aria-label={t('accountNav')}>
        {pathname !== links.login() && (
          <ButtonLink href={links.login()} $variant="ghost" $size="sm">
            {t('signIn')}
          </ButtonLink>
        )}
        {pathname !== links.createAccount() && (
          <ButtonLink href={links.createAccount()} $size="sm">
            {t('createAccount')}
          </ButtonLink>
        )}
      </Actions>
    </NavbarFrame>
  );
}
