import { screen } from '@testing-library/react';
import { CommentItem } from '../../../../../features/posts/comments/CommentItem';
import { PostCard } from '../../../../../features/posts/components/PostCard';
import { buildComment, buildPost, buildUser } from '../../../support/factories';
import { renderWithProviders, signedInState } from '../../../support/renderWithProviders';

const me = buildUser({ username: 'me' });
const state = { preloadedState: signedInState(me) };

describe('mentions in messages', () => {
  it('links each @name of someone who exists to their profile (as stored), leaves the others as text', () => {
    const post = buildPost({
      message: 'Sailing with @Ann and @nobody, mail ann@example.com. Thanks @ann!',
      mentions: ['ann'],
    });
    renderWithProviders(<PostCard post={post} />, state);
    const links = screen.getAllByRole('link', { name: /^@ann$/i });
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['@Ann', '/profile/ann'],
      ['@ann', '/profile/ann'],
    ]);
    expect(screen.queryByRole('link', { name: '@nobody' })).not.toBeInTheDocument();
    // The message reads exactly as written.
    expect(links[0].closest('p')).toHaveTextContent(
      /^Sailing with @Ann and @nobody, mail ann@example\.com\. Thanks @ann!$/,
    );
  });

  it('shows a message without known mentions as plain text', () => {
    renderWithProviders(<PostCard post={buildPost({ message: 'Hi @ann', mentions: [] })} />, state);
    expect(screen.getByText('Hi @ann')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '@ann' })).not.toBeInTheDocument();
  });

  it('links mentions in a comment', () => {
    const comment = buildComment({ creator: 'bob', message: '@carol look, @dave.', mentions: ['dave'] });
    renderWithProviders(<CommentItem postId="p1" postCreator="bob" comment={comment} />, state);
    expect(screen.getByRole('link', { name: '@dave' })).toHaveAttribute('href', '/profile/dave');
    expect(screen.queryByRole('link', { name: '@carol' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '@dave' }).closest('p')).toHaveTextContent(/^@carol look, @dave\.$/);
  });
});
