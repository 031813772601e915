/**
 * The settings and admin areas in another language (issue 75): their texts, plurals, the form
 * schemas' errors and the thunks' toasts come from the page's language, not from English.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import ReportDialog from '../../../../features/moderation/components/ReportDialog';
import PushSettings from '../../../../features/push/components/PushSettings';
import { AccountSettings, SettingsNav } from '../../../../features/settings';
import SecuritySettings from '../../../../features/settings/components/SecuritySettings';
import { TwoFactorSettings } from '../../../../features/settings/components/TwoFactorSettings';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'ann', email: 'ann@example.com' });
const at = '2026-11-23T10:00:00.000Z';

describe('settings in German', () => {
  it('names the sections of the settings page', () => {
    renderWithProviders(<SettingsNav />, { language: 'de' });
    const nav = screen.getByRole('navigation', { name: 'Bereiche der Einstellungen' });
    expect(within(nav).getByRole('link', { name: 'Gefolgte Hashtags' })).toHaveAttribute('href', '#tags');
    expect(within(nav).getByRole('link', { name: 'Zwei-Faktor-Authentifizierung' })).toHaveAttribute(
      'href',
      '#two-factor',
    );
  });

  it('counts the recovery codes left with the plural German needs', () => {
    const { rerender } = renderWithProviders(
      <TwoFactorSettings status={{ enabled: true, recoveryCodesLeft: 1 }} onChanged={vi.fn()} />,
      { language: 'de' },
    );
    expect(screen.getByRole('heading', { name: 'Zwei-Faktor-Authentifizierung' })).toBeInTheDocument();
    expect(screen.getByText(/1 Wiederherstellungscode übrig\.$/)).toBeInTheDocument();
    rerender(<TwoFactorSettings status={{ enabled: true, recoveryCodesLeft: 7 }} onChanged={vi.fn()} />);
    expect(screen.getByText(/7 Wiederherstellungscodes übrig\.$/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zwei-Faktor-Authentifizierung deaktivieren' })).toBeInTheDocument();
  });

  it("toasts a revoked app in German (the security thunks' texts)", async () => {
    let apps = [{ id: 'a1', name: 'Ivory', website: null, scopes: ['read'], authorizedAt: at }];
    server.use(
      http.get('/api/auth/apps', () => HttpResponse.json(apps)),
      http.delete('/api/auth/apps/:id', () => {
        apps = [];
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/auth/sessions', () => HttpResponse.json([])),
      http.get('/api/auth/2fa', () => HttpResponse.json({ enabled: false, recoveryCodesLeft: 0 })),
      http.get('/api/users/me/blocks', () => HttpResponse.json([])),
      http.get('/api/users/me/mutes', () => HttpResponse.json([])),
      http.get('/api/tags', () => HttpResponse.json([])),
    );
    const { store } = renderWithProviders(<SecuritySettings username="ann" />, {
      preloadedState: signedInState(me),
      language: 'de',
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Zugriff von Ivory widerrufen' }));
    await screen.findByText('Du hast keine App autorisiert.');
    expect(store.getState().toasts).toMatchObject([
      { message: 'Die App kann dein Konto nicht mehr verwenden', kind: 'success' },
    ]);
    expect(screen.getByText('Du hast niemanden blockiert.')).toBeInTheDocument();
  });
});

describe('settings and reports in Arabic', () => {
  it("says the account form's schema errors in Arabic", async () => {
    renderWithProviders(<AccountSettings user={me} />, { preloadedState: signedInState(me), language: 'ar' });
    expect(screen.getByRole('heading', { name: 'الحساب' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'حفظ الحساب' }));
    expect(await screen.findByText('أدخل كلمة مرورك الحالية لحفظ التغييرات')).toBeInTheDocument();
    expect(screen.getByLabelText('كلمة المرور الحالية')).toBeInTheDocument();
  });

  it('offers the reasons of a report and asks for one in Arabic', async () => {
    renderWithProviders(<ReportDialog targetType="comment" targetId="c1" onClose={vi.fn()} />, {
      preloadedState: signedInState(me),
      language: 'ar',
    });
    const dialog = await screen.findByRole('dialog', { name: 'الإبلاغ عن هذا التعليق' });
    expect(within(dialog).getByLabelText('إساءة أو تحرُّش')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'إرسال البلاغ' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('اختر سببًا لبلاغك.');
  });

  it('says in Arabic that this browser cannot take pushes', () => {
    renderWithProviders(<PushSettings />, { language: 'ar' });
    expect(screen.getByRole('heading', { name: 'الإشعارات على هذا الجهاز' })).toBeInTheDocument();
    expect(screen.getByText(/لا يستطيع هذا المتصفح عرض إشعارات Posts/)).toBeInTheDocument();
  });
});
