import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import AdminPanel from '../../../../features/moderation/components/AdminPanel';
import { selectLog } from '../../../../features/moderation/state/adminSlice';
import type {
  AdminLogEntry,
  AdminOverview,
  AdminUserInfo,
  DomainBlock,
  HiddenFromTrends,
  Report,
  TrendingTag,
} from '../../../../lib/types';
import { buildPost, buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const admin = buildUser({ username: 'root', role: 'admin' });
const at = '2026-01-02T03:04:05.000Z';

const report = (id: string, status: 'open' | 'resolved' = 'open'): Report => ({
  id,
  targetType: 'user',
  targetId: `u-${id}`,
  reason: 'spam',
  note: '',
  status,
  reporter: `reporter-${id}`,
  createdAt: at,
  resolvedAt: null,
  resolvedBy: null,
  resolution: null,
  target: { type: 'user', username: `user-${id}`, avatar: null, description: '', suspended: false },
});

const logEntry = (id: string, target: string): AdminLogEntry => ({
  id,
  admin: 'root',
  action: 'dismiss',
  targetType: 'user',
  targetId: target,
  target,
  note: '',
  createdAt: at,
});

const overview: AdminOverview = {
  people: { total: 120, active30d: 45, signedUpThisWeek: 6 },
  activity: Array.from({ length: 30 }, (_, i) => ({
    day: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
    posts: i === 29 ? 7 : i % 3,
    comments: i % 5,
  })),
  openReports: 3,
  mediaBytes: 12_345_678,
  queues: { imageJobs: { running: 1, queued: 2 }, mailOutbox: 0 },
  instances: [
    { id: 'instance-1', healthy: true, lastSeen: at, startedAt: at, database: 'up', self: true },
    { id: 'instance-2', healthy: false, lastSeen: at, startedAt: at, database: 'down', self: false },
  ],
};

/** The admin API as the handlers keep it: an open queue of two pages, the log, one user. */
function adminServer() {
  const state = {
    open: [report('r1'), report('r2'), report('r3')],
    resolved: [report('r0', 'resolved')],
    log: [] as AdminLogEntry[],
    domains: [] as DomainBlock[],
    trendingTags: [{ tag: 'sunset', people: 3, posts: 4 }] as TrendingTag[],
    trendingPosts: [buildPost({ _id: 'p1', creator: 'carol', message: 'Golden hour' })],
    hidden: [] as HiddenFromTrends[],
    user: {
      username: 'bob',
      role: 'member',
      avatar: null,
      postsCount: 2,
      createdAt: at,
      suspendedAt: null,
    } as AdminUserInfo,
  };
  server.use(
    http.get('/api/admin/overview', () => HttpResponse.json(overview)),
    http.get('/api/admin/reports', ({ request }) => {
      const url = new URL(request.url);
      const list = url.searchParams.get('status') === 'resolved' ? state.resolved : state.open;
      if (url.searchParams.get('cursor')) return HttpResponse.json(list.slice(2));
      return HttpResponse.json(list.slice(0, 2), {
        headers: list.length > 2 ? { Link: '</api/admin/reports?status=open&cursor=2>; rel="next"' } : {},
      });
    }),
    http.post('/api/admin/reports/:id/resolve', ({ params }) => {
      const done = state.open.find((r) => r.id === params.id)!;
      state.open = state.open.filter((r) => r.id !== params.id);
      state.resolved.push({ ...done, status: 'resolved' });
      state.log.unshift(logEntry(`l${state.log.length + 1}`, String(params.id)));
      return HttpResponse.json({ ...done, status: 'resolved' });
    }),
    http.get('/api/admin/log', () => HttpResponse.json(state.log)),
    http.get('/api/admin/users/:name', ({ params }) =>
      params.name === 'bob'
        ? HttpResponse.json(state.user)
        : HttpResponse.json({ message: 'User not found', code: 'NotFound' }, { status: 404 }),
    ),
    http.get('/api/admin/domains', () => HttpResponse.json(state.domains)),
    http.post('/api/admin/domains', async ({ request }) => {
      const { domain, severity } = (await request.json()) as { domain: string; severity: 'silence' | 'suspend' };
      if (domain.includes('/'))
        return HttpResponse.json({ message: 'The domain must be a host name', code: 'InvalidDomain' }, { status: 400 });
      const block = { domain: domain.toLowerCase(), severity, createdAt: at, updatedAt: at };
      state.domains = [...state.domains.filter((d) => d.domain !== block.domain), block];
      state.log.unshift({
        ...logEntry(`l${state.log.length + 1}`, block.domain),
        action: severity === 'suspend' ? 'suspendDomain' : 'silenceDomain',
        targetType: 'domain',
      });
      return HttpResponse.json(block, { status: 201 });
    }),
    http.delete('/api/admin/domains/:domain', ({ params }) => {
      state.domains = state.domains.filter((d) => d.domain !== params.domain);
      state.log.unshift({
        ...logEntry(`l${state.log.length + 1}`, String(params.domain)),
        action: 'unblockDomain',
        targetType: 'domain',
      });
      return new HttpResponse(null, { status: 204 });
    }),
    // Trends (issue 73): hiding takes a tag or post out of Explore's answer, showing puts it back.
    http.get('/api/explore', () =>
      HttpResponse.json({
        tags: state.trendingTags.filter((t) => !state.hidden.some((h) => h.kind === 'tag' && h.subject === t.tag)),
        posts: state.trendingPosts.filter((p) => !state.hidden.some((h) => h.kind === 'post' && h.subject === p._id)),
        people: [],
      }),
    ),
    http.get('/api/admin/explore/hidden', () => HttpResponse.json(state.hidden)),
    http.put('/api/admin/explore/hidden/:kind/:subject', ({ params }) => {
      if (params.subject === 'not a tag!')
        return HttpResponse.json({ message: 'Please enter a valid tag', code: 'InvalidTag' }, { status: 400 });
      const entry = {
        kind: params.kind as 'post' | 'tag',
        subject: String(params.subject).toLowerCase(),
        createdAt: at,
      };
      state.hidden = [entry, ...state.hidden];
      return HttpResponse.json(entry);
    }),
    http.delete('/api/admin/explore/hidden/:kind/:subject', ({ params }) => {
      state.hidden = state.hidden.filter((h) => !(h.kind === params.kind && h.subject === params.subject));
      return new HttpResponse(null, { status: 204 });
    }),
    http.post('/api/admin/users/bob/suspend', () => {
      state.user = { ...state.user, suspendedAt: at };
      state.log.unshift(logEntry(`l${state.log.length + 1}`, 'bob'));
      return HttpResponse.json(state.user);
    }),
  );
  return state;
}

const reports = () => screen.getAllByRole('listitem', { name: /^Report of a/ });

describe('the admin panel, through the store', () => {
  it('shows the overview: people, reports, media, queues, the 30-day chart and each instance', async () => {
    adminServer();
    renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin) });
    const panel = await screen.findByRole('region', { name: 'Overview' });
    await within(panel).findByText('120');
    expect(panel).toHaveTextContent('45 active in 30 days · 6 new this week');
    expect(panel).toHaveTextContent('Open reports3');
    expect(panel).toHaveTextContent('12 MB');
    expect(panel).toHaveTextContent('3image jobs, 2 waiting · 0 mails to send');
    const posts = overview.activity.reduce((sum, d) => sum + d.posts, 0);
    const comments = overview.activity.reduce((sum, d) => sum + d.comments, 0);
    expect(
      within(panel).getByRole('img', {
        name: `Posts and comments per day over the last 30 days: ${posts} posts, ${comments} comments`,
      }),
    ).toBeInTheDocument();
    expect(panel).toHaveTextContent('instance-1healthy');
    expect(panel).toHaveTextContent('instance-2database down');
  });

  it('reads the open queue and the log, pages on, switches to the resolved reports', async () => {
    adminServer();
    renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin) });
    await waitFor(() => expect(reports()).toHaveLength(2));
    expect(await screen.findByText('Nothing yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(reports()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Resolved' }));
    expect(screen.getByRole('button', { name: 'Resolved' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(reports()).toHaveLength(1));
    expect(screen.getByText(/reported by reporter-r0/)).toBeInTheDocument();
  });

  it('resolving a report reads the queue and the log again', async () => {
    adminServer();
    const { store } = renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin) });
    await waitFor(() => expect(reports()).toHaveLength(2));
    await userEvent.click(within(reports()[0]).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(/reported by reporter-r1/)).not.toBeInTheDocument());
    await waitFor(() => expect(selectLog(store.getState()).page?.items.map((e) => e.target)).toEqual(['r1']));
    expect(screen.getByText(/dismissed a report on/)).toBeInTheDocument();
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['Report dismissed']);
  });

  it('looks a user up and suspends them; a name not found says so in place, without a toast', async () => {
    adminServer();
    const { store } = renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin) });
    const name = screen.getByLabelText('Username');
    await userEvent.type(name, 'nobody');
    await userEvent.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('User not found');
    expect(store.getState().toasts).toEqual([]);

    await userEvent.clear(name);
    await userEvent.type(name, 'bob');
    await userEvent.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByText('Active')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Suspend' }));
    // Asked first, then said once done.
    const dialog = screen.getByRole('dialog', { name: 'Suspend bob?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Suspended')).toBeInTheDocument();
    await waitFor(() => expect(selectLog(store.getState()).page?.items.map((e) => e.target)).toEqual(['bob']));
    await waitFor(() => expect(store.getState().toasts.map((t) => t.message)).toEqual(['bob is suspended']));
  });

  it('blocks a domain, shows it with its severity, unblocks it; a refusal says why in place', async () => {
    const state = adminServer();
    const { store } = renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin) });
    const panel = await screen.findByRole('region', { name: 'Blocked domains' });
    expect(await within(panel).findByText('No domain is blocked.')).toBeInTheDocument();

    await userEvent.type(within(panel).getByLabelText('Domain'), 'https://spam.example/');
    await userEvent.click(within(panel).getByRole('button', { name: 'Block domain' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('The domain must be a host name');
    expect(state.domains).toEqual([]);

    await userEvent.clear(within(panel).getByLabelText('Domain'));
    await userEvent.type(within(panel).getByLabelText('Domain'), 'Spam.example');
    await userEvent.selectOptions(within(panel).getByLabelText('Severity'), 'suspend');
    await userEvent.click(within(panel).getByRole('button', { name: 'Block domain' }));
    expect(await within(panel).findByText('spam.example')).toBeInTheDocument();
    expect(panel).toHaveTextContent('Suspended: nothing in or out');
    expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(panel).getByLabelText('Domain')).toHaveValue('');
    expect(await screen.findByText(/suspended domain/)).toBeInTheDocument();
    await waitFor(() => expect(store.getState().toasts.map((t) => t.message)).toEqual(['spam.example is suspended']));

    await userEvent.click(within(panel).getByRole('button', { name: 'Unblock spam.example' }));
    expect(await within(panel).findByText('No domain is blocked.')).toBeInTheDocument();
    await waitFor(() =>
      expect(selectLog(store.getState()).page?.items.map((e) => e.action)).toEqual(['unblockDomain', 'suspendDomain']),
    );
  });

  it('starts afresh when opened again', async () => {
    adminServer();
    const { store, unmount } = renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin) });
    await waitFor(() => expect(reports()).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Resolved' }));
    await waitFor(() => expect(reports()).toHaveLength(1));
    unmount();
    renderWithProviders(<AdminPanel />, { store });
    expect(screen.getByRole('button', { name: 'Open' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(reports()).toHaveLength(2));
  });

  it('hides a trending tag and post, and a tag by name; shows them again; a refusal says why in place', async () => {
    const user = userEvent.setup();
    adminServer();
    const { store } = renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin) });
    const toasts = () => store.getState().toasts.map((t) => t.message);
    const panel = await screen.findByRole('region', { name: 'Trends' });
    const list = (name: string) => within(panel).getByRole('list', { name });
    await within(panel).findByRole('link', { name: '#sunset' });
    expect(within(panel).getByText('3 people · 4 posts')).toBeInTheDocument();
    expect(within(panel).getByText('Nothing is hidden.')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Hide #sunset from the trends' }));
    await within(panel).findByText('No tag is trending.');
    expect(list('Hidden from the trends')).toHaveTextContent('#sunset');
    expect(toasts()).toContain('Hid #sunset from the trends.');

    await user.click(within(panel).getByRole('button', { name: 'Hide the post by carol from the trends' }));
    await within(panel).findByText('No post is trending.');
    expect(within(list('Hidden from the trends')).getByRole('link', { name: 'A post' })).toHaveAttribute(
      'href',
      '/post/p1',
    );

    await user.type(within(panel).getByLabelText('Tag'), '#Dawn');
    await user.click(within(panel).getByRole('button', { name: 'Hide tag' }));
    await waitFor(() => expect(list('Hidden from the trends')).toHaveTextContent('#dawn'));
    expect(within(panel).getByLabelText('Tag')).toHaveValue('');

    await user.type(within(panel).getByLabelText('Tag'), 'not a tag!');
    await user.click(within(panel).getByRole('button', { name: 'Hide tag' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Please enter a valid tag');
    expect(within(panel).getByLabelText('Tag')).toHaveValue('not a tag!');

    await user.click(within(panel).getByRole('button', { name: 'Show #sunset in the trends again' }));
    await within(panel).findByRole('button', { name: 'Hide #sunset from the trends' });
    expect(toasts()).toContain('#sunset may trend again.');
    await user.click(within(panel).getByRole('button', { name: 'Show a post in the trends again' }));
    await within(panel).findByRole('button', { name: 'Hide the post by carol from the trends' });
  });
});

describe('the admin panel in another language (issue 75)', () => {
  it('shows the overview, the queue and the log in German, with its plurals', async () => {
    adminServer();
    renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin), language: 'de' });
    const panel = await screen.findByRole('region', { name: 'Überblick' });
    await within(panel).findByText('120');
    expect(panel).toHaveTextContent('45 aktiv in 30 Tagen · 6 neu diese Woche');
    expect(panel).toHaveTextContent('Bildaufträge, 2 wartend · 0 E-Mails zu senden');
    expect(
      within(panel).getByRole('img', { name: /^Beiträge und Kommentare pro Tag in den letzten 30 Tagen: / }),
    ).toBeInTheDocument();
    expect(panel).toHaveTextContent('instance-2Datenbank ausgefallen');
    const queue = screen.getByRole('region', { name: 'Meldungen' });
    expect(
      await within(queue).findAllByRole('listitem', { name: /^Meldung eines Kontos von reporter-/ }),
    ).not.toHaveLength(0);
    expect(within(queue).getAllByRole('button', { name: 'Verwerfen' })).not.toHaveLength(0);
    expect(screen.getByRole('region', { name: 'Protokoll' })).toBeInTheDocument();
  });

  it('asks before suspending, in Arabic', async () => {
    adminServer();
    renderWithProviders(<AdminPanel />, { preloadedState: signedInState(admin), language: 'ar' });
    await userEvent.type(await screen.findByLabelText('اسم المستخدم'), 'bob');
    await userEvent.click(screen.getByRole('button', { name: 'بحث' }));
    await userEvent.click(await screen.findByRole('button', { name: 'إيقاف' }));
    const dialog = screen.getByRole('dialog', { name: 'هل تريد إيقاف bob؟' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'إيقاف' }));
    expect(await screen.findByText('موقوف')).toBeInTheDocument();
  });
});
