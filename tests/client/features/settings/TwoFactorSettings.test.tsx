import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { recoveryCodesText, TwoFactorSettings } from '../../../../features/settings/components/TwoFactorSettings';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

vi.mock('qrcode', () => ({ toDataURL: async () => 'data:image/png;base64,AAAA' }));

const CODES = ['aaaa-1111', 'bbbb-2222', 'cccc-3333'];

/** Issue 68, item 18: the recovery codes, shown once, can be copied and downloaded. */
describe('TwoFactorSettings recovery codes', () => {
  afterEach(() => vi.restoreAllMocks());

  it('copies them (with a toast) and downloads them as a .txt', async () => {
    server.use(
      http.post('/api/auth/2fa/setup', () => HttpResponse.json({ otpauthUrl: 'otpauth://totp/x', secret: 'SECRET' })),
      http.post('/api/auth/2fa/enable', () => HttpResponse.json({ recoveryCodes: CODES })),
    );
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:codes';
    });
    URL.revokeObjectURL = vi.fn();
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const { store } = renderWithProviders(
      <TwoFactorSettings status={{ enabled: false, recoveryCodesLeft: 0 }} onChanged={vi.fn()} />,
      { preloadedState: signedInState(buildUser()) },
    );
    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    await user.type(await screen.findByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await screen.findByRole('list', { name: 'Recovery codes' });

    await user.click(screen.getByRole('button', { name: 'Copy codes' }));
    await vi.waitFor(() =>
      expect(store.getState().toasts).toMatchObject([{ message: 'Recovery codes copied', kind: 'success' }]),
    );
    expect(await navigator.clipboard.readText()).toBe(recoveryCodesText(CODES));

    await user.click(screen.getByRole('button', { name: 'Download .txt' }));
    expect(saved).toEqual([{ href: 'blob:codes', download: 'posts-recovery-codes.txt' }]);
    expect(blobs[0].type).toBe('text/plain');
    const text = await blobs[0].text();
    for (const code of CODES) expect(text).toContain(`${code}\n`);
  });
});
