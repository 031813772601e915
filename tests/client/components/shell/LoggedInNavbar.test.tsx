import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoggedInNavbar } from '../../../../components/shell/LoggedInNavbar';
import { buildUser } from '../../support/factories';
import { renderWithProviders } from '../../support/renderWithProviders';
import { setRoute } from '../../support/router';

const user = buildUser({ username: 'alice', email: 'alice@example.com' });

function scrollTo(y: number) {
  act(() => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    fireEvent.scroll(window);
  });
}

const renderNavbar = () =>
  renderWithProviders(<LoggedInNavbar user={user} onCreatePost={vi.fn()} onLogout={vi.fn()} />);

describe('LoggedInNavbar', () => {
  afterEach(() => Object.defineProperty(window, 'scrollY', { value: 0, configurable: true }));

  it('shows Home, Contact, Profile and Create post on desktop', () => {
    renderNavbar();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(screen.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile/alice');
    expect(screen.getByRole('button', { name: 'Create post' })).toBeInTheDocument();
  });

  it('opens the avatar dropdown with Profile, Saved, Settings and Logout; Escape closes it', async () => {
    const u = userEvent.setup();
    renderNavbar();
    await u.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(screen.getAllByRole('link', { name: 'Profile' })).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Saved' })).toHaveAttribute('href', '/saved');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    await u.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('closes the dropdown on a click outside it, not inside it', async () => {
    const u = userEvent.setup();
    renderNavbar();
    await u.click(screen.getByRole('button', { name: 'Account menu' }));
    await u.click(screen.getByText('alice@example.com'));
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    await u.click(document.body);
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('opens the mobile sidebar with Create post, Home, Contact and the profile block', async () => {
    const u = userEvent.setup();
    renderNavbar();
    // jsdom applies the desktop media query, so the hamburger counts as hidden there.
    await u.click(screen.getByRole('button', { name: 'Open menu', hidden: true }));
    const sidebar = screen.getByRole('dialog', { name: 'Menu' });
    for (const name of ['Create post', 'Logout'])
      expect(sidebar).toContainElement(screen.getAllByRole('button', { name }).at(-1)!);
    expect(sidebar).toHaveTextContent('alice@example.com');
    await u.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();
  });

  it('renders the tag search once; the mobile search button opens that same search with the keyboard in it', async () => {
    const u = userEvent.setup();
    renderNavbar();
    expect(screen.getAllByRole('search', { hidden: true })).toHaveLength(1);
    const toggle = screen.getByRole('button', { name: 'Search by tags', hidden: true });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await u.click(toggle);
    expect(screen.getAllByRole('search', { hidden: true })).toHaveLength(1);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toHaveAttribute('data-open', 'true');
    expect(screen.getByLabelText('Add a tag to search')).toHaveFocus();
    await u.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('hides when scrolled down past 30px and comes back on scrolling up', () => {
    renderNavbar();
    const navbar = screen.getByTestId('navbar');
    scrollTo(30);
    expect(navbar).toHaveAttribute('data-hidden', 'false');
    scrollTo(31);
    expect(navbar).toHaveAttribute('data-hidden', 'true');
    scrollTo(200);
    expect(navbar).toHaveAttribute('data-hidden', 'true');
    scrollTo(150);
    expect(navbar).toHaveAttribute('data-hidden', 'false');
  });

  it('is translucent on profile pages while the scroll position is under 50px', () => {
    setRoute('/profile/[profileName]', '/profile/alice', { profileName: 'alice' });
    renderNavbar();
    const navbar = screen.getByTestId('navbar');
    expect(navbar).toHaveAttribute('data-translucent', 'true');
    scrollTo(49);
    expect(navbar).toHaveAttribute('data-translucent', 'true');
    scrollTo(50);
    expect(navbar).toHaveAttribute('data-translucent', 'false');
  });

  it('is never translucent on other pages', () => {
    setRoute('/home');
    renderNavbar();
    expect(screen.getByTestId('navbar')).toHaveAttribute('data-translucent', 'false');
  });
});
