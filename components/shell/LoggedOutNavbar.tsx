import { useRouter } from 'next/router';
import styled from 'styled-components';
import { ButtonLink } from '../ui/Button';
import { Logo } from './Logo';
import { NavbarFrame, Spacer } from './NavbarFrame';

const Actions = styled.nav`
  display: flex;
  gap: 8px;
`;

/** Logo plus 'Sign in' and 'Create Account'; each page hides the button that leads to itself. */
export function LoggedOutNavbar() {
  const { pathname } = useRouter();
  return (
    <NavbarFrame>
      <Logo href="/" />
      <Spacer />
      <Actions aria-label="Account">
        {pathname !== '/login' && (
          <ButtonLink href="/login" $variant="ghost" $size="sm">
            Sign in
          </ButtonLink>
        )}
        {pathname !== '/createAccount' && (
          <ButtonLink href="/createAccount" $size="sm">
            Create Account
          </ButtonLink>
        )}
      </Actions>
    </NavbarFrame>
  );
}
