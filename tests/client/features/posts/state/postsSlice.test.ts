import { http, HttpResponse } from 'msw';
import { TEXTS } from '../../../../../lib/texts';
import { makeStore, type AppStore } from '../../../../../store';
import { postCleared } from '../../../../../features/posts/state/currentPost';
import { selectCurrentPost, selectPostList } from '../../../../../features/posts/state/selectors';
import {
  addComment,
  createPost,
  deleteComment,
  deletePost,
  dislikeComment,
  dislikePost,
  editPost,
  fetchMoreComments,
  fetchMorePosts,
  fetchPost,
  fetchPosts,
  likeComment,
  likePost,
} from '../../../../../features/posts/state/thunks';
import { buildComment, buildPost, buildUser } from '../../../support/factories';
import { signedInState } from '../../../support/renderWithProviders';
import { server } from '../../../support/server';
import { postsIn } from '../../../../../features/posts/state/postsIn';

const me = buildUser({ username: 'me' });
const signedIn = () => makeStore(signedInState(me));
const messages = (store: AppStore) => store.getState().toasts.map((n) => n.message);
const fail =
  (message: string, status = 400) =>
  () =>
    HttpResponse.json({ message, code: 'Error' }, { status });

describe('post lists', () => {
  it('loads a feed and follows the Link cursor for the next page', async () => {
    const first = [buildPost(), buildPost()];
    const second = [buildPost()];
    server.use(
      http.get('/api/posts', ({ request }) => {
        const url = new URL(request.url);
        if (url.searchParams.get('cursor') === 'abc') return HttpResponse.json(second);
        expect(url.searchParams.get('feed')).toBe('following');
        return HttpResponse.json(first, { headers: { Link: '</api/posts?feed=following&cursor=abc>; rel="next"' } });
      }),
    );
    const store = signedIn();
    await store.dispatch(fetchPosts({ kind: 'feed', feed: 'following' }));
    expect(postsIn(store.getState()).list).toMatchObject({
      status: 'done',
      next: '/api/posts?feed=following&cursor=abc',
    });
    await store.dispatch(fetchMorePosts());
    expect(selectPostList(store.getState()).items.map((p) => p._id)).toEqual([...first, ...second].map((p) => p._id));
    expect(postsIn(store.getState()).list.next).toBeNull();
  });

  it('asks for tagged posts with the comma-joined tags', async () => {
    let tags: string | null = null;
    server.use(
      http.get('/api/posts/tagged', ({ request }) => {
        tags = new URL(request.url).searchParams.get('tags');
        return HttpResponse.json([]);
      }),
    );
    await signedIn().dispatch(fetchPosts({ kind: 'tagged', tags: ['cats', 'dogs'] }));
    expect(tags).toBe('cats,dogs');
  });
});

describe('post actions go idle → loading → done or failed', () => {
  it('likes a post: counts and my reaction come from the server, with the "Liked" toast', async () => {
    const post = buildPost({ _id: 'p1' });
    let body: unknown;
    server.use(
      http.patch('/api/posts/p1/like', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ likesCount: 1, dislikesCount: 0, myReaction: 'like' });
      }),
    );
    const store = signedIn();
    store.dispatch({
      type: fetchPosts.fulfilled.type,
      payload: { items: [post], next: null },
      meta: { arg: { kind: 'feed', feed: 'all' } },
    });
    expect(postsIn(store.getState()).like).toEqual({ status: 'idle', error: null });
    const pending = store.dispatch(likePost('p1'));
    expect(postsIn(store.getState()).like).toEqual({ status: 'loading', error: null });
    await pending;
    expect(postsIn(store.getState()).like).toEqual({ status: 'done', error: null });
    expect(body).toEqual({ userId: me._id });
    expect(messages(store)).toEqual([TEXTS.liked]);
  });

  it('dislikes a post with the "Disliked" toast', async () => {
    server.use(
      http.patch('/api/posts/p1/dislike', () =>
        HttpResponse.json({ likesCount: 0, dislikesCount: 1, myReaction: 'dislike' }),
      ),
    );
    const store = signedIn();
    await store.dispatch(dislikePost('p1'));
    expect(postsIn(store.getState()).dislike.status).toBe('done');
    expect(messages(store)).toEqual(['Disliked']);
  });

  it("stores the server's message on failure and shows it", async () => {
    server.use(http.patch('/api/posts/p1/like', fail('Post not found', 404)));
    const store = signedIn();
    await store.dispatch(likePost('p1'));
    expect(postsIn(store.getState()).like).toEqual({ status: 'failed', error: 'Post not found' });
    expect(messages(store)).toEqual(['Post not found']);
  });

  it('clears the previous error when a new attempt starts', async () => {
    server.use(http.patch('/api/posts/p1/like', fail('Rate limited', 429)));
    const store = signedIn();
    await store.dispatch(likePost('p1'));
    server.use(
      http.patch('/api/posts/p1/like', () =>
        HttpResponse.json({ likesCount: 1, dislikesCount: 0, myReaction: 'like' }),
      ),
    );
    const pending = store.dispatch(likePost('p1'));
    expect(postsIn(store.getState()).like).toEqual({ status: 'loading', error: null });
    await pending;
  });

  it.each([
    ['like', (store: AppStore) => store.dispatch(likePost('p1'))],
    ['dislike', (store: AppStore) => store.dispatch(dislikePost('p1'))],
    ['addComment', (store: AppStore) => store.dispatch(addComment({ postId: 'p1', message: 'hi' }))],
    ['likeComment', (store: AppStore) => store.dispatch(likeComment({ postId: 'p1', commentId: 'c1' }))],
    ['likeComment', (store: AppStore) => store.dispatch(dislikeComment({ postId: 'p1', commentId: 'c1' }))],
  ] as const)('%s fails with "User are not logged in" without a user', async (slot, run) => {
    const store = makeStore();
    await run(store);
    expect(postsIn(store.getState())[slot]).toEqual({ status: 'failed', error: 'User are not logged in' });
  });

  it('liking and disliking a comment share one slot, with their own toasts', async () => {
    const comment = buildComment({ commentId: 'c1' });
    server.use(
      http.get('/api/posts/p1', () => HttpResponse.json({ ...buildPost({ _id: 'p1' }), comments: [comment] })),
      http.patch('/api/posts/p1/comments/like', () =>
        HttpResponse.json({ commentId: 'c1', likesCount: 1, dislikesCount: 0, myReaction: 'like' }),
      ),
      http.patch('/api/posts/p1/comments/dislike', () =>
        HttpResponse.json({ commentId: 'c1', likesCount: 0, dislikesCount: 1, myReaction: 'dislike' }),
      ),
    );
    const store = signedIn();
    await store.dispatch(fetchPost('p1'));
    const liking = store.dispatch(likeComment({ postId: 'p1', commentId: 'c1' }));
    expect(postsIn(store.getState()).likeComment.status).toBe('loading');
    await liking;
    expect(selectCurrentPost(store.getState()).post?.comments[0]).toMatchObject({ likesCount: 1, myReaction: 'like' });
    const disliking = store.dispatch(dislikeComment({ postId: 'p1', commentId: 'c1' }));
    expect(postsIn(store.getState()).likeComment.status).toBe('loading');
    await disliking;
    expect(postsIn(store.getState()).likeComment).toEqual({ status: 'done', error: null });
    expect(selectCurrentPost(store.getState()).post?.comments[0]).toMatchObject({
      dislikesCount: 1,
      myReaction: 'dislike',
    });
    expect(messages(store)).toEqual(['Liked comment', 'Disliked']);
  });

  it.each([
    ['likePost', (store: AppStore) => store.dispatch(likePost('p1'))],
    ['dislikePost', (store: AppStore) => store.dispatch(dislikePost('p1'))],
    ['likeComment', (store: AppStore) => store.dispatch(likeComment({ postId: 'p1', commentId: 'c1' }))],
    ['dislikeComment', (store: AppStore) => store.dispatch(dislikeComment({ postId: 'p1', commentId: 'c1' }))],
  ] as const)('%s toasts nothing when the toggle takes the reaction back', async (_, run) => {
    const undone = { commentId: 'c1', likesCount: 0, dislikesCount: 0, myReaction: null };
    server.use(
      http.patch('/api/posts/p1/like', () => HttpResponse.json(undone)),
      http.patch('/api/posts/p1/dislike', () => HttpResponse.json(undone)),
      http.patch('/api/posts/p1/comments/like', () => HttpResponse.json(undone)),
      http.patch('/api/posts/p1/comments/dislike', () => HttpResponse.json(undone)),
    );
    const store = signedIn();
    const result = await run(store);
    expect(result.meta.requestStatus).toBe('fulfilled');
    expect(messages(store)).toEqual([]);
  });

  it('adds a comment to the current post with "Comment added"', async () => {
    const comment = buildComment({ message: 'Nice' });
    server.use(
      http.get('/api/posts/p1', () =>
        HttpResponse.json({ ...buildPost({ _id: 'p1', commentsCount: 0 }), comments: [] }),
      ),
      http.post('/api/posts/p1/comments', () => HttpResponse.json(comment, { status: 201 })),
    );
    const store = signedIn();
    await store.dispatch(fetchPost('p1'));
    await store.dispatch(addComment({ postId: 'p1', message: 'Nice' }));
    expect(postsIn(store.getState()).addComment.status).toBe('done');
    expect(selectCurrentPost(store.getState()).post).toMatchObject({ commentsCount: 1, comments: [comment] });
    expect(messages(store)).toEqual(['Comment added']);
  });

  it('creates a post without a success toast and refreshes the list', async () => {
    const created = buildPost({ creator: 'me' });
    let listCalls = 0;
    let body: Record<string, unknown> = {};
    server.use(
      http.get('/api/posts', () => {
        listCalls += 1;
        return HttpResponse.json(listCalls > 1 ? [created] : []);
      }),
      http.post('/api/posts/create', async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(created, { status: 201 });
      }),
    );
    const store = signedIn();
    await store.dispatch(fetchPosts({ kind: 'feed', feed: 'following' }));
    await store.dispatch(createPost({ message: 'Hello', image: '/media/x.webp', tags: ['a'] }));
    expect(postsIn(store.getState()).create).toEqual({ status: 'done', error: null });
    expect(body).toMatchObject({ message: 'Hello', image: '/media/x.webp', tags: ['a'], creator: 'me' });
    await vi.waitFor(() => expect(selectPostList(store.getState()).items).toEqual([created]));
    expect(messages(store)).toEqual([]);
  });

  it('edits a post with "Post has been edited", then reads the list and that post again (spec section 7)', async () => {
    let stored = buildPost({ _id: 'p1', message: 'old' });
    let body: unknown;
    const reads: string[] = [];
    server.use(
      http.get('/api/posts', () => {
        reads.push('list');
        return HttpResponse.json([stored]);
      }),
      http.get('/api/posts/p1', () => {
        reads.push('post');
        return HttpResponse.json({ ...stored, comments: [] });
      }),
      http.patch('/api/posts/p1/manage', async ({ request }) => {
        body = await request.json();
        stored = { ...stored, message: 'new' };
        return HttpResponse.json(stored);
      }),
    );
    const store = signedIn();
    await store.dispatch(fetchPosts({ kind: 'feed', feed: 'all' }));
    await store.dispatch(fetchPost('p1'));
    reads.length = 0;
    await store.dispatch(editPost({ id: 'p1', post: { message: 'new' } }));
    expect(body).toEqual({ post: { message: 'new' } });
    expect(postsIn(store.getState()).edit.status).toBe('done');
    expect(messages(store)).toEqual(['Post has been edited']);
    await vi.waitFor(() => expect(reads.sort()).toEqual(['list', 'post']));
    await vi.waitFor(() => expect(postsIn(store.getState()).list.status).toBe('done'));
    expect(selectPostList(store.getState()).items[0]).toMatchObject({ message: 'new' });
    expect(selectCurrentPost(store.getState()).post).toMatchObject({ message: 'new' });
  });

  it('after an edit reads only what is on screen: no list, another post', async () => {
    const reads: string[] = [];
    server.use(
      http.get('/api/posts/*', ({ request }) => {
        reads.push(new URL(request.url).pathname);
        return HttpResponse.json({ ...buildPost({ _id: 'p2' }), comments: [] });
      }),
      http.patch('/api/posts/p1/manage', () => HttpResponse.json(buildPost({ _id: 'p1' }))),
    );
    const store = signedIn();
    await store.dispatch(fetchPost('p2'));
    reads.length = 0;
    await store.dispatch(editPost({ id: 'p1', post: { message: 'new' } }));
    expect(postsIn(store.getState()).edit.status).toBe('done');
    expect(reads).toEqual([]);
  });

  it('deletes a post with "Post has been deleted"', async () => {
    server.use(http.delete('/api/posts/p1/manage', () => HttpResponse.json({ _id: 'p1' })));
    const store = signedIn();
    const pending = store.dispatch(deletePost('p1'));
    expect(postsIn(store.getState()).delete.status).toBe('loading');
    await pending;
    expect(postsIn(store.getState()).delete.status).toBe('done');
    expect(messages(store)).toEqual(['Post has been deleted']);
  });
});

describe('current post', () => {
  it('is one read: the post with its newest comments, and the Link to older ones, which loading more follows', async () => {
    const newest = [buildComment({ commentId: 'c3' }), buildComment({ commentId: 'c2' })];
    const older = [buildComment({ commentId: 'c1' })];
    const asked: string[] = [];
    server.use(
      http.get('/api/posts/p1', ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return HttpResponse.json(
          { ...buildPost({ _id: 'p1', commentsCount: 3 }), comments: newest },
          {
            headers: { Link: '</api/posts/p1/comments?cursor=c2&limit=2>; rel="next"' },
          },
        );
      }),
      http.get('/api/posts/p1/comments', ({ request }) => {
        asked.push(`${new URL(request.url).pathname}${new URL(request.url).search}`);
        return HttpResponse.json(older);
      }),
    );
    const store = signedIn();
    await store.dispatch(fetchPost('p1'));
    expect(asked).toEqual(['/api/posts/p1']);
    expect(postsIn(store.getState()).currentPost).toMatchObject({
      commentsNext: '/api/posts/p1/comments?cursor=c2&limit=2',
    });
    await store.dispatch(fetchMoreComments());
    expect(asked).toEqual(['/api/posts/p1', '/api/posts/p1/comments?cursor=c2&limit=2']);
    expect(selectCurrentPost(store.getState()).post?.comments.map((c) => c.commentId)).toEqual(['c3', 'c2', 'c1']);
    expect(postsIn(store.getState()).currentPost.commentsNext).toBeNull();
  });

  it('loads with loading and error, and clearing resets it to empty', async () => {
    server.use(http.get('/api/posts/missing', fail('Post not found', 404)));
    const store = signedIn();
    const pending = store.dispatch(fetchPost('missing'));
    expect(postsIn(store.getState()).currentPost).toMatchObject({ loading: true, error: null });
    await pending;
    expect(selectCurrentPost(store.getState())).toMatchObject({ loading: false, error: 'Post not found', post: null });
    store.dispatch(postCleared());
    expect(postsIn(store.getState()).currentPost).toEqual(postsIn(makeStore().getState()).currentPost);
  });
});

describe('deleting a comment', () => {
  it('removes it from the current post and lowers the count', async () => {
    const comments = [buildComment({ commentId: 'c1' }), buildComment({ commentId: 'c2' })];
    server.use(
      http.get('/api/posts/p1', () => HttpResponse.json({ ...buildPost({ _id: 'p1', commentsCount: 2 }), comments })),
      http.delete('/api/posts/p1/comments/c1', () => HttpResponse.json({ commentId: 'c1' })),
    );
    const store = signedIn();
    await store.dispatch(fetchPost('p1'));
    await store.dispatch(deleteComment({ postId: 'p1', commentId: 'c1' }));
    expect(selectCurrentPost(store.getState()).post).toMatchObject({
      commentsCount: 1,
      comments: [{ commentId: 'c2' }],
    });
  });

  it("shows the server's message when it is not allowed", async () => {
    server.use(http.delete('/api/posts/p1/comments/c1', fail('Not allowed', 403)));
    const store = signedIn();
    await store.dispatch(deleteComment({ postId: 'p1', commentId: 'c1' }));
    expect(messages(store)).toEqual(['Not allowed']);
  });
});

describe('posts are stored once', () => {
  const feed = { kind: 'feed', feed: 'all' } as const;

  it('an edit, a reaction and a new comment change the one post the list and its page both show', async () => {
    let post = buildPost({ _id: 'p1', message: 'old', commentsCount: 0 });
    const other = buildPost({ _id: 'p2' });
    server.use(
      http.get('/api/posts', () => HttpResponse.json([post, other])),
      http.get('/api/posts/p1', () => HttpResponse.json({ ...post, comments: [] })),
      http.patch('/api/posts/p1/like', () =>
        HttpResponse.json({ likesCount: 1, dislikesCount: 0, myReaction: 'like' }),
      ),
      http.patch('/api/posts/p1/manage', () => {
        post = { ...post, message: 'new' };
        return HttpResponse.json(post);
      }),
      http.post('/api/posts/p1/comments', () => HttpResponse.json(buildComment(), { status: 201 })),
    );
    const store = signedIn();
    await store.dispatch(fetchPosts(feed));
    await store.dispatch(fetchPost('p1'));
    await store.dispatch(editPost({ id: 'p1', post: { message: 'new' } }));
    // The edit reads the list and the post again (spec section 7).
    await vi.waitFor(() => expect(postsIn(store.getState()).list.status).toBe('done'));
    await vi.waitFor(() => expect(postsIn(store.getState()).currentPost.loading).toBe(false));
    await store.dispatch(likePost('p1'));
    await store.dispatch(addComment({ postId: 'p1', message: 'hi' }));
    const expected = { _id: 'p1', message: 'new', likesCount: 1, myReaction: 'like', commentsCount: 1 };
    expect(selectPostList(store.getState()).items[0]).toMatchObject(expected);
    expect(selectCurrentPost(store.getState()).post).toMatchObject(expected);
    expect(postsIn(store.getState()).stored.ids).toEqual(['p1', 'p2']);
    expect(postsIn(store.getState()).stored.entities.p1).not.toHaveProperty('comments');
  });

  it('keeps a post while a list, its page or the editor shows it', async () => {
    server.use(
      http.get('/api/posts', () =>
        HttpResponse.json([buildPost({ _id: 'p1', creator: 'me' }), buildPost({ _id: 'p2' })]),
      ),
      http.get('/api/posts/tagged', () => HttpResponse.json([buildPost({ _id: 'p3' })])),
      http.get('/api/posts/p2', () => HttpResponse.json({ ...buildPost({ _id: 'p2' }), comments: [] })),
      http.delete('/api/posts/p1/manage', () => HttpResponse.json({ _id: 'p1' })),
    );
    const store = signedIn();
    await store.dispatch(fetchPosts(feed));
    await store.dispatch(deletePost('p1'));
    expect(selectPostList(store.getState()).items.map((p) => p._id)).toEqual(['p2']);
    expect(postsIn(store.getState()).stored.ids).toEqual(['p2']);
    await store.dispatch(fetchPost('p2'));
    await store.dispatch(fetchPosts({ kind: 'tagged', tags: ['sea'] }));
    expect(postsIn(store.getState()).stored.ids.toSorted()).toEqual(['p2', 'p3']);
    store.dispatch(postCleared());
    expect(postsIn(store.getState()).stored.ids).toEqual(['p3']);
  });

  it('ignores the answer for a list that is no longer on screen', async () => {
    const store = signedIn();
    store.dispatch(fetchPosts.pending('a', feed));
    store.dispatch(fetchPosts.pending('b', { kind: 'tagged', tags: ['sea'] }));
    const before = postsIn(store.getState());
    store.dispatch(fetchPosts.fulfilled({ items: [buildPost()], next: null }, 'a', feed));
    expect(postsIn(store.getState())).toBe(before);
  });
});
