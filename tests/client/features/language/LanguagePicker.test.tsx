import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { LanguagePicker } from '../../../../features/language';
import { reloadPage } from '../../../../features/language/lib/reloadPage';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

vi.mock('../../../../features/language/lib/reloadPage', () => ({ reloadPage: vi.fn() }));

/** Forgets the `lang` cookie a test set (jsdom keeps cookies across tests). */
const forgetCookie = () => (document.cookie = 'lang=; Path=/; Max-Age=0');
afterEach(() => {
  forgetCookie();
  vi.mocked(reloadPage).mockClear();
});

describe('LanguagePicker', () => {
  it("names each language in itself, marked with its own lang, under a label in the page's language", () => {
    renderWithProviders(<LanguagePicker />, { language: 'de' });
    const select = screen.getByRole('combobox', { name: 'Sprache' });
    expect(select).toHaveValue('de');
    const options = within(select).getAllByRole('option');
    expect(
      options.map((option) => [option.getAttribute('value'), option.getAttribute('lang'), option.textContent]),
    ).toEqual([
      ['en', 'en', 'English'],
      ['es', 'es', 'Español'],
      ['de', 'de', 'Deutsch'],
      ['fr', 'fr', 'Français'],
      ['ja', 'ja', '日本語'],
      ['ar', 'ar', 'العربية'],
    ]);
  });

  it("keeps a visitor's choice in the lang cookie and loads the page again, asking nothing of the server", async () => {
    const patched = vi.fn();
    server.use(http.patch('*/api/users/updateProfile', patched));
    renderWithProviders(<LanguagePicker />);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Español');
    await vi.waitFor(() => expect(reloadPage).toHaveBeenCalledOnce());
    expect(document.cookie).toContain('lang=es');
    expect(patched).not.toHaveBeenCalled();
  });

  it("saves a member's choice to the account before the cookie and the reload", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.patch('*/api/users/updateProfile', async ({ request }) => {
        bodies.push(await request.json());
        // The page must not load again before the account has the language.
        expect(reloadPage).not.toHaveBeenCalled();
        expect(document.cookie).not.toContain('lang=');
        return HttpResponse.json({ user: buildUser({ language: 'ja' }) });
      }),
    );
    renderWithProviders(<LanguagePicker />, { preloadedState: signedInState(buildUser()) });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), '日本語');
    await vi.waitFor(() => expect(reloadPage).toHaveBeenCalledOnce());
    expect(bodies).toEqual([{ language: 'ja' }]);
    expect(document.cookie).toContain('lang=ja');
  });

  it('says so when the account refused the change, and keeps the page and the cookie as they were', async () => {
    server.use(http.patch('*/api/users/updateProfile', () => HttpResponse.json({ message: 'Down' }, { status: 503 })));
    renderWithProviders(<LanguagePicker />, { preloadedState: signedInState(buildUser()) });
    const select = screen.getByRole('combobox', { name: 'Language' });
    await userEvent.selectOptions(select, 'Français');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your language could not be saved. Please try again.');
    expect(select).toHaveValue('en');
    expect(select).toBeEnabled();
    expect(reloadPage).not.toHaveBeenCalled();
    expect(document.cookie).not.toContain('lang=');
  });
});
