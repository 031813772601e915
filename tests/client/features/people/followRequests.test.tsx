/**
 * Approve followers on the pages (issue 70): the follow button's three states (Follow, Requested,
 * Following), the follow requests list with its badge and answers, and removing a follower from
 * one's own followers list. Against the API as msw answers it.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { FollowButton, FollowRequests } from '../../../../features/people';
import ConnectionList from '../../../../features/profile/components/ConnectionList';
import type { PersonResult } from '../../../../lib/types';
import { buildProfile, buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'me' });
const ann: PersonResult = { _id: 'u1', username: 'ann', avatar: null, description: '', followedByMe: false };
const bob: PersonResult = { _id: 'u2', username: 'bob', avatar: null, description: '', followedByMe: false };

// The buttons read the signed-in user again (their counts changed).
beforeEach(() => server.use(http.get('/api/auth/getLoggedUser', () => HttpResponse.json(me))));

describe('FollowButton', () => {
  it('Follow becomes Requested for someone who approves followers; pressing it withdraws', async () => {
    const calls: string[] = [];
    server.use(
      http.patch('/api/users/star/follow', () => {
        calls.push('follow');
        return HttpResponse.json({ user: buildProfile({ username: 'star', followRequestedByMe: true }) });
      }),
      http.patch('/api/users/star/unfollow', () => {
        calls.push('unfollow');
        return HttpResponse.json({ user: buildProfile({ username: 'star' }) });
      }),
    );
    renderWithProviders(<FollowButton username="star" followedByMe={false} />, { preloadedState: signedInState(me) });
    await userEvent.click(screen.getByRole('button', { name: 'Follow star' }));
    expect(await screen.findByRole('button', { name: 'Requested star' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Requested star' }));
    expect(await screen.findByRole('button', { name: 'Follow star' })).toBeInTheDocument();
    expect(calls).toEqual(['follow', 'unfollow']);
  });

  it('a follow of anyone else is Following at once; a waiting request shows Requested', async () => {
    server.use(
      http.patch('/api/users/open/follow', () =>
        HttpResponse.json({ user: buildProfile({ username: 'open', followedByMe: true }) }),
      ),
    );
    renderWithProviders(
      <>
        <FollowButton username="open" followedByMe={false} />
        <FollowButton username="asked" followedByMe={false} requested />
      </>,
      { preloadedState: signedInState(me) },
    );
    expect(screen.getByRole('button', { name: 'Requested asked' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Follow open' }));
    expect(await screen.findByRole('button', { name: 'Following open' })).toBeInTheDocument();
  });
});

describe('FollowRequests', () => {
  it('lists the waiting people with a badge; Approve and Reject answer each', async () => {
    const answers: string[] = [];
    server.use(
      http.get('/api/follow-requests', ({ request }) =>
        new URL(request.url).searchParams.get('limit') !== '40'
          ? HttpResponse.json({ message: 'limit', code: 'ValidationError' }, { status: 400 })
          : HttpResponse.json([
              { ...ann, requestId: 'r1', requestedAt: '2026-01-01T00:00:00.000Z' },
              { ...bob, requestId: 'r2', requestedAt: '2026-01-01T00:00:00.000Z' },
            ]),
      ),
      http.get('/api/follow-requests/count', () => HttpResponse.json({ count: 2 })),
      http.post('/api/follow-requests/:id/:answer', ({ params }) => {
        answers.push(`${params.answer}:${params.id}`);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithProviders(<FollowRequests />, { preloadedState: signedInState(me) });
    expect(await screen.findByRole('heading', { name: /Follow requests/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more requests' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('2 waiting')).toHaveTextContent('2');
    await userEvent.click(screen.getByRole('button', { name: 'Approve ann' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve ann' })).not.toBeInTheDocument());
    expect(screen.getByLabelText('1 waiting')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reject bob' }));
    // None waits: the section goes.
    await waitFor(() => expect(screen.queryByRole('heading', { name: /Follow requests/ })).not.toBeInTheDocument());
    expect(answers).toEqual(['approve:u1', 'reject:u2']);
  });

  it('more than a page: the badge counts them all, and Show more loads the next page', async () => {
    const carol: PersonResult = { _id: 'u3', username: 'carol', avatar: null, description: '', followedByMe: false };
    const asked = (p: PersonResult, requestId: string) => ({
      ...p,
      requestId,
      requestedAt: '2026-01-01T00:00:00.000Z',
    });
    server.use(
      http.get('/api/follow-requests', ({ request }) =>
        new URL(request.url).searchParams.get('cursor') === 'r2'
          ? HttpResponse.json([asked(carol, 'r1')])
          : HttpResponse.json([asked(ann, 'r3'), asked(bob, 'r2')], {
              headers: { link: '</api/follow-requests?limit=40&cursor=r2>; rel="next"' },
            }),
      ),
      http.get('/api/follow-requests/count', () => HttpResponse.json({ count: 3 })),
    );
    renderWithProviders(<FollowRequests />, { preloadedState: signedInState(me) });
    expect(await screen.findByLabelText('3 waiting')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve carol' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show more requests' }));
    expect(await screen.findByRole('button', { name: 'Approve carol' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve ann' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more requests' })).not.toBeInTheDocument();
  });
});

describe('removing a follower', () => {
  it('one’s own followers have Remove, asked first; others’ lists do not', async () => {
    const removed: string[] = [];
    server.use(
      http.get('/api/users/me/followers', () => HttpResponse.json([ann])),
      http.get('/api/users/carol/followers', () => HttpResponse.json([bob])),
      http.delete('/api/users/:username/follower', ({ params }) => {
        removed.push(String(params.username));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { unmount } = renderWithProviders(<ConnectionList username="carol" kind="followers" />, {
      preloadedState: signedInState(me),
    });
    expect(await screen.findByRole('link', { name: /^bob$/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove follower/ })).not.toBeInTheDocument();
    unmount();

    renderWithProviders(<ConnectionList username="me" kind="followers" />, { preloadedState: signedInState(me) });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove follower ann' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: /^ann$/ })).not.toBeInTheDocument());
    expect(removed).toEqual(['ann']);
  });
});
