import { useRouter } from 'next/router';
import styled from 'styled-components';
import { ButtonLink } from '../ui/Button';
import { Logo } from './Logo';
import { NavbarFrame, Spacer } from './NavbarFrame';
import { links } from '../../lib/pages';

const Actions = styled.nav`
  display: flex;
  gap: 8px;
`;

/** Logo plus 'Sign in' and 'Create Account'; each page hides the button that leads to itself. */
export function LoggedOutNavbar() {
  const { pathname } = useRouter();
  return (
    <NavbarFrame>
      <Logo href={links.landing()} />
      <Spacer />
      <Actions aria-label="Account">
        {pathname !== links.login() && (
          <ButtonLink href={links.login()} $variant="ghost" $size="sm">
            Sign in
          </ButtonLink>
        )}
        {pathname !== links.createAccount() && (
          <ButtonLink href={links.createAccount()} $size="sm">
            Create Account
          </ButtonLink>
        )}
      </Actions>
    </NavbarFrame>
  );
}
