import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import VerifyEmailBanner from '../../../../features/auth/components/VerifyEmailBanner';
import {
  hideVerifyBannerScript,
  VERIFY_BANNER_HIDDEN_ATTR,
  VERIFY_BANNER_HIDDEN_KEY,
  VERIFY_BANNER_HIDE_MS,
} from '../../../../lib/verifyBanner';
import { globalCss } from '../../../../styles/globalCss';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';

const runDocumentScript = () => new Function(hideVerifyBannerScript)();

/** Issue 68, item 15: the banner can be hidden, for a day, not for good. */
describe('VerifyEmailBanner', () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute(VERIFY_BANNER_HIDDEN_ATTR);
  });

  it('"Remind me tomorrow" hides it for a day and moves the keyboard on to the page', async () => {
    const me = buildUser({ emailVerified: false });
    renderWithProviders(
      <>
        <VerifyEmailBanner user={me} underNavbar={false} />
        <main tabIndex={-1}>page</main>
      </>,
      { preloadedState: signedInState(me) },
    );
    const before = Date.now();
    await userEvent.click(screen.getByRole('button', { name: 'Remind me tomorrow' }));
    expect(document.documentElement).toHaveAttribute(VERIFY_BANNER_HIDDEN_ATTR);
    expect(screen.getByRole('region', { name: 'Email verification' })).toHaveAttribute('data-verify-banner');
    expect(globalCss).toContain('html[data-verify-hidden] [data-verify-banner] { display: none; }');
    const until = Number(localStorage.getItem(VERIFY_BANNER_HIDDEN_KEY));
    expect(until).toBeGreaterThanOrEqual(before + VERIFY_BANNER_HIDE_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + VERIFY_BANNER_HIDE_MS);
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it("the document's script hides it before the body while the day lasts, not after", () => {
    localStorage.setItem(VERIFY_BANNER_HIDDEN_KEY, String(Date.now() + 60_000));
    runDocumentScript();
    expect(document.documentElement).toHaveAttribute(VERIFY_BANNER_HIDDEN_ATTR);

    document.documentElement.removeAttribute(VERIFY_BANNER_HIDDEN_ATTR);
    localStorage.setItem(VERIFY_BANNER_HIDDEN_KEY, String(Date.now() - 1));
    runDocumentScript();
    expect(document.documentElement).not.toHaveAttribute(VERIFY_BANNER_HIDDEN_ATTR);
  });
});
