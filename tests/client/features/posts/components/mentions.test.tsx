import { screen } from '@testing-library/react';
import { CommentItem } from '../../../../../features/posts/components/comments/CommentItem';
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

  it('links a name elsewhere by its server’s rules (two letters, a dash, an IDN), as stored', () => {
    const post = buildPost({
      message: 'Hi @ok@other.example, @dash-name@other.example and @bob@bücher.example.',
      mentions: ['ok@other.example', 'dash-name@other.example', 'bob@xn--bcher-kva.example'],
    });
    renderWithProviders(<PostCard post={post} />, state);
    expect(screen.getByRole('link', { name: '@ok@other.example' })).toHaveAttribute(
      'href',
      '/profile/@ok@other.example',
    );
    expect(screen.getByRole('link', { name: '@dash-name@other.example' })).toHaveAttribute(
      'href',
      '/profile/@dash-name@other.example',
    );
    // Shown as typed, linked to the name as stored (the host in ASCII).
    expect(screen.getByRole('link', { name: '@bob@bücher.example' })).toHaveAttribute(
      'href',
      '/profile/@bob@xn--bcher-kva.example',
    );
  });
});

describe('@name@ this site', () => {
  it('links by the local name the server stored, and a name elsewhere it did not find stays text', () => {
    const post = buildPost({ message: 'Hi @ann@posts.example and @zed@other.example', mentions: ['ann'] });
    renderWithProviders(<PostCard post={post} />, state);
    expect(screen.getByRole('link', { name: '@ann@posts.example' })).toHaveAttribute('href', '/profile/ann');
    expect(screen.queryByRole('link', { name: /^@zed/ })).not.toBeInTheDocument();
  });
});

describe('hashtags in messages (issue 68, item 4)', () => {
  it("links a post's hashtags that are among its tags to their page, and leaves the others as text", () => {
    const post = buildPost({
      message: "It's #Sunset time, #123 and #foo·bar; see https://x.example/#anchor",
      tags: ['sunset'],
    });
    renderWithProviders(<PostCard post={post} />, state);
    const link = screen.getByRole('link', { name: '#Sunset' });
    expect(link).toHaveAttribute('href', '/tagged/sunset');
    expect(screen.queryByRole('link', { name: '#123' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^#foo/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^#anchor/ })).not.toBeInTheDocument();
    expect(link.closest('p')).toHaveTextContent(
      /^It's #Sunset time, #123 and #foo·bar; see https:\/\/x\.example\/#anchor$/,
    );
  });

  it('links the hashtags of a comment that can be tags', () => {
    const comment = buildComment({ creator: 'bob', message: 'So #café, not #123.', mentions: [] });
    renderWithProviders(<CommentItem postId="p1" postCreator="bob" comment={comment} />, state);
    expect(screen.getByRole('link', { name: '#café' })).toHaveAttribute(
      'href',
      `/tagged/${encodeURIComponent('café')}`,
    );
    expect(screen.queryByRole('link', { name: '#123' })).not.toBeInTheDocument();
  });
});
