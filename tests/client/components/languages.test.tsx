/**
 * The shell, sign-in and people area in other languages (issue 75): the page's language reaches
 * the navbar, the forms' checks, a notification's sentence, the counts (their plural forms) and the
 * relative times; English stays as the spec writes it (the other tests).
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoggedInNavbar } from '../../../components/shell/LoggedInNavbar';
import { dateTimeTitleIn, RelativeTime, relativeTime } from '../../../components/ui/RelativeTime';
import { LoginForm } from '../../../features/auth';
import { ExplorePage } from '../../../features/explore';
import { NotificationList } from '../../../features/notifications/components/NotificationList';
import { ProfileHeader } from '../../../features/profile/components/ProfileHeader';
import { buildNotification, buildProfile, buildUser } from '../support/factories';
import { renderWithProviders, signedInState } from '../support/renderWithProviders';

const me = buildUser({ username: 'alice', email: 'alice@example.com' });

describe('in Japanese', () => {
  it('names the navbar’s links and buttons in Japanese', () => {
    renderWithProviders(<LoggedInNavbar user={me} onCreatePost={vi.fn()} onLogout={vi.fn()} />, { language: 'ja' });
    expect(screen.getByRole('link', { name: 'ホーム' })).toHaveAttribute('href', '/home');
    expect(screen.getByRole('link', { name: 'お問い合わせ' })).toHaveAttribute('href', '/contact');
    expect(screen.getByRole('button', { name: '投稿を作成' })).toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'タグで投稿を検索' })).toBeInTheDocument();
    expect(screen.queryByText('Home')).toBeNull();
  });

  it('puts the actor where Japanese puts them, in each kind of notification', () => {
    renderWithProviders(
      <NotificationList
        items={[
          buildNotification({ type: 'like' }),
          buildNotification({ type: 'mention', comment: { commentId: 'c1', message: 'hi @alice' } }),
        ]}
      />,
      { language: 'ja', preloadedState: signedInState(me) },
    );
    const rows = screen.getAllByRole('link');
    expect(rows[0]).toHaveTextContent('annさんがあなたの投稿に「いいね！」しました、新着');
    expect(rows[1]).toHaveTextContent('annさんがコメントであなたをメンションしました');
  });

  it('says "just now" and a date as Japanese does', () => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    expect(relativeTime(new Date(now - 20_000).toISOString(), now, 'ja')).toBe('今');
    expect(relativeTime(new Date(now - 2 * 86_400_000).toISOString(), now, 'ja')).toBe('一昨日');
    const date = new Date('2026-11-22T17:12:48');
    expect(dateTimeTitleIn(date, 'ja')).toBe('2026/11/22 17:12:48');
  });
});

describe('in Arabic', () => {
  it('says how long ago in Arabic, the English words gone', () => {
    const threeHoursAgo = new Date(Date.now() - 3 * 3600_000 - 60_000).toISOString();
    renderWithProviders(<RelativeTime iso={threeHoursAgo} />, { language: 'ar' });
    const time = screen.getByText(
      new Intl.RelativeTimeFormat('ar', { numeric: 'auto', style: 'short' }).format(-3, 'hour'),
    );
    expect(time.tagName).toBe('TIME');
    expect(time.textContent).not.toMatch(/hr|ago/);
    expect(time).toHaveAttribute('title', dateTimeTitleIn(new Date(threeHoursAgo), 'ar'));
  });

  it('keeps English relative times exactly as before', () => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    expect(relativeTime(new Date(now - 3 * 3600_000).toISOString(), now)).toBe('3 hr. ago');
    expect(relativeTime(new Date(now - 20_000).toISOString(), now, 'en')).toBe('just now');
  });

  it('gives a profile’s counts their Arabic plural forms (two, few, many)', () => {
    renderWithProviders(
      <ProfileHeader
        profile={buildProfile({ username: 'ann', followersCount: 2, postsCount: 11, followingCount: 3 })}
        isMe={false}
      />,
      { language: 'ar', preloadedState: signedInState(me) },
    );
    expect(screen.getByText('متابِعان')).toBeInTheDocument();
    expect(screen.getByText('منشورًا')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'متابعة' })).toBeInTheDocument();
  });

  it('counts a trending tag’s people and posts with Arabic plurals', () => {
    renderWithProviders(
      <ExplorePage initial={{ posts: [], tags: [{ tag: 'sunset', people: 2, posts: 5 }], people: [] }} />,
      {
        language: 'ar',
        preloadedState: signedInState(me),
      },
    );
    const five = new Intl.NumberFormat('ar').format(5);
    expect(screen.getByText(`شخصان · ${five} منشورات`)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'الوسوم الرائجة' })).toBeInTheDocument();
  });

  it('says the sign-in form’s checks in Arabic', async () => {
    const u = userEvent.setup();
    renderWithProviders(<LoginForm />, { language: 'ar' });
    await u.click(screen.getByRole('button', { name: 'تسجيل الدخول' }));
    expect(await screen.findByText('البريد الإلكتروني مطلوب')).toBeInTheDocument();
    expect(screen.getByText('كلمة المرور مطلوبة')).toBeInTheDocument();
    expect(screen.getByText('مرحبًا بعودتك')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'أنشئ حسابًا' })).toHaveAttribute('href', '/createAccount');
  });
});
