import { screen } from '@testing-library/react';
import { LoggedOutNavbar } from '../../../../components/shell/LoggedOutNavbar';
import { renderWithProviders } from '../../support/renderWithProviders';
import { setRoute } from '../../support/router';

describe('LoggedOutNavbar', () => {
  it('shows Sign in and Create Account on the landing page', () => {
    setRoute('/');
    renderWithProviders(<LoggedOutNavbar />);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/createAccount');
    expect(screen.getByRole('link', { name: /Posts/ })).toBeInTheDocument();
  });

  it('shows only Create Account on /login', () => {
    setRoute('/login');
    renderWithProviders(<LoggedOutNavbar />);
    expect(screen.queryByRole('link', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Account' })).toBeInTheDocument();
  });

  it('shows only Sign in on /createAccount', () => {
    setRoute('/createAccount');
    renderWithProviders(<LoggedOutNavbar />);
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create Account' })).not.toBeInTheDocument();
  });

  it("speaks the page's language (issue 75): Arabic", () => {
    setRoute('/');
    renderWithProviders(<LoggedOutNavbar />, { language: 'ar' });
    expect(screen.getByRole('navigation', { name: 'الحساب' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'تسجيل الدخول' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'إنشاء حساب' })).toHaveAttribute('href', '/createAccount');
  });
});
