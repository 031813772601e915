import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import InstagramImportSettings from '../../../../features/instagramImport/components/InstagramImportSettings';
import type { InstagramImport } from '../../../../lib/types';
import { renderWithProviders } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const found = (kind: InstagramImport['kind']): InstagramImport => ({
  id: 'job1',
  kind,
  settings: kind === 'posts' ? { displayName: 'Ann', description: 'Boats' } : null,
  state: 'ready',
  total: 0,
  done: 0,
  failed: 0,
  pending: 0,
  posts: [
    {
      position: 0,
      takenAt: '2021-06-01T10:00:00.000Z',
      caption: 'Three from the coast',
      photos: 3,
      leftOut: 0,
      status: 'found',
      error: null,
      postId: null,
    },
  ],
  createdAt: '2026-12-07T06:00:00.000Z',
  finishedAt: null,
});

/** The upload answers `kind`'s archive; what `start` was sent is kept. */
function serve(kind: InstagramImport['kind']) {
  const started: unknown[] = [];
  server.use(
    http.get('/api/imports/instagram', () => HttpResponse.json({ import: null })),
    http.post('/api/imports/instagram', () => HttpResponse.json({ import: found(kind) }, { status: 201 })),
    http.post('/api/imports/instagram/job1/start', async ({ request }) => {
      started.push(await request.json());
      return HttpResponse.json({ import: { ...found(kind), state: 'running', total: 1, pending: 1 } }, { status: 202 });
    }),
  );
  return started;
}

async function uploadArchive(user: ReturnType<typeof userEvent.setup>) {
  const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'export.zip', { type: 'application/zip' });
  await user.upload(screen.getByLabelText('Instagram archive or Posts export (zip)'), zip);
  await user.click(screen.getByRole('button', { name: 'Upload the archive' }));
  await screen.findByRole('heading', { name: '1 post found' });
}

/** Issue 76, item 3: the section takes either archive; a Posts export's settings come only when ticked. */
describe('InstagramImportSettings', () => {
  it('says it takes an Instagram archive or a Posts export', async () => {
    serve('instagram');
    renderWithProviders(<InstagramImportSettings />);
    expect(screen.getByRole('region', { name: 'Import from Instagram or another Posts instance' })).toBeInTheDocument();
    expect(screen.getByText(/on another Posts instance, use “Download your data”/)).toBeInTheDocument();
    expect(screen.getByLabelText('Instagram archive or Posts export (zip)')).toBeInTheDocument();
  });

  it('offers a Posts export’s profile settings, unticked, and sends the choice with the pick', async () => {
    const started = serve('posts');
    const user = userEvent.setup();
    renderWithProviders(<InstagramImportSettings />);
    await uploadArchive(user);
    const box = screen.getByRole('checkbox', { name: 'Also bring my profile settings' });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(/Never your email, password or username/);
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Import 1 post' }));
    await vi.waitFor(() => expect(started).toEqual([{ positions: [0], settings: true }]));
  });

  it('offers no settings for an Instagram archive', async () => {
    const started = serve('instagram');
    const user = userEvent.setup();
    renderWithProviders(<InstagramImportSettings />);
    await uploadArchive(user);
    expect(screen.queryByRole('checkbox', { name: 'Also bring my profile settings' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Import 1 post' }));
    await vi.waitFor(() => expect(started).toEqual([{ positions: [0], settings: false }]));
  });
});
