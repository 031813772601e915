/**
 * The share target's last step (issue 74, item 3): `/home?shared=image` takes the image the service
 * worker kept and opens the composer with it uploaded; none kept says so. Cache Storage (which
 * jsdom lacks) is stood in for by a map of Responses, as the worker leaves them; the server is msw.
 */
import { http, HttpResponse } from 'msw';
import { NO_SHARED_IMAGE, SharedImageOpener } from '../../../../features/sharedImage/components/SharedImageOpener';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { router, setRoute } from '../../support/router';
import { server } from '../../support/server';
import { postsIn } from '../../../../features/posts/state/postsIn';

/** Cache Storage with one cache holding what the worker put there. */
function keptByWorker(entries: Record<string, Response>) {
  const opened: string[] = [];
  vi.stubGlobal('caches', {
    open: async (name: string) => {
      opened.push(name);
      return {
        match: async (key: string) => entries[key]?.clone(),
        delete: async (key: string) => delete entries[key],
      };
    },
  });
  return { entries, opened };
}

afterEach(() => vi.unstubAllGlobals());

describe('SharedImageOpener', () => {
  it('opens the composer with the shared image, uploaded under its name, and takes it out of the cache', async () => {
    const { entries, opened } = keptByWorker({
      '/shared-image': new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), {
        headers: { 'content-type': 'image/png', 'x-shared-name': encodeURIComponent('holiday at sea.png') },
      }),
    });
    const uploaded: string[] = [];
    server.use(
      http.post('/api/uploads', async ({ request }) => {
        uploaded.push(await request.text());
        return HttpResponse.json(
          {
            secure_url: '/media/s.webp',
            public_id: 's',
            width: 4,
            height: 3,
            format: 'webp',
            bytes: 4,
            thumbhash: null,
          },
          { status: 201 },
        );
      }),
    );
    setRoute('/home', '/home?shared=image', { shared: 'image' });
    const { store } = renderWithProviders(<SharedImageOpener />, { preloadedState: signedInState(buildUser()) });
    await vi.waitFor(() => expect(postsIn(store.getState()).editor).toEqual({ open: true, postId: null }));
    await vi.waitFor(() => expect(uploaded).toHaveLength(1));
    expect(uploaded[0]).toMatch(/filename="holiday at sea.png"\r\nContent-Type: image\/png/);
    expect(opened).toEqual(['posts-shared']);
    expect(entries).toEqual({});
    // The address no longer says "shared": a reload does not look again.
    expect(router.replace).toHaveBeenCalledWith('/home', undefined, { shallow: true });
  });

  it('says the image is gone when the worker kept none', async () => {
    keptByWorker({});
    setRoute('/home', '/home?shared=image', { shared: 'image' });
    const { store } = renderWithProviders(<SharedImageOpener />, { preloadedState: signedInState(buildUser()) });
    await vi.waitFor(() =>
      expect(store.getState().toasts).toMatchObject([{ message: NO_SHARED_IMAGE, kind: 'error' }]),
    );
    expect(postsIn(store.getState()).editor.open).toBe(false);
  });

  it('waits for the sign-in: signed out, the image stays where the worker put it', async () => {
    const { entries, opened } = keptByWorker({ '/shared-image': new Response('x') });
    setRoute('/home', '/home?shared=image', { shared: 'image' });
    const { store } = renderWithProviders(<SharedImageOpener />);
    // Nothing to wait for: the component does its work in an effect, which has run by now.
    await Promise.resolve();
    expect(opened).toEqual([]);
    expect(Object.keys(entries)).toEqual(['/shared-image']);
    expect(store.getState().toasts).toEqual([]);
    expect(router.replace).not.toHaveBeenCalled();
  });
});
