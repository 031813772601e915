/**
 * The hand-written JSON of the post and comment lists (`server/http/asciiJson.ts`): ASCII only,
 * read back as the same values, and the same fields as the response schemas say.
 */
import fastJson from 'fast-json-stringify';
import type { Comment, Post, PostWithComments } from '../../lib/types';
import {
  commentListBytes,
  commentListJson,
  keepCommentJson,
  postWithCommentsBytes,
  postWithCommentsJson,
} from '../../server/comments/json';
import { KEPT_ARRAYS_BYTES, jsonString, keptBytes } from '../../server/http/asciiJson';
import { commentSchema, listOf, postSchema, postWithCommentsSchema } from '../../server/http/schemas';
import { keepPostJson, postListBytes, postListJson } from '../../server/posts/json';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

const ASCII = /^[\x20-\x7e]*$/;
const AWKWARD = [
  '',
  'plain',
  'quote " and backslash \\ and slash /',
  'controls \u0000\u0001\b\f\n\r\t\u001f and DEL \u007f',
  'Latin-1: été, ß, ÿ, and a no-break space\u00a0',
  'emoji 🙂✨ and a flag 🇫🇷',
  'line separators \u2028\u2029',
  'lone surrogates \ud800 and \udfff, reversed pair \udc00\ud800',
  'x'.repeat(20_000) + '🙂', // longer than one String.fromCharCode call
];

describe('jsonString', () => {
  it.each(AWKWARD.map((s) => [s.slice(0, 30), s]))('writes %j in ASCII and reads back the same', (_, value) => {
    const json = jsonString(value);
    expect(json).toMatch(ASCII);
    expect(JSON.parse(json)).toBe(value);
  });
});

const post = (over: Partial<Post> = {}): Post => ({
  _id: '01935b78-43a2-7000-ac67-3b88f4a63559',
  message: AWKWARD[5],
  image: '/media/post/x/1080.jpg',
  imageInfo: { width: 1080, height: 810, thumbhash: 'rOkCBYRfd2d7', srcset: '/media/post/x/540.webp 540w' },
  tags: ['été', 'CATS', '🙂'],
  creator: 'ann',
  creatorImage: null,
  likesCount: 3,
  dislikesCount: 0,
  commentsCount: 12,
  myReaction: 'like',
  alt: 'a "quoted" alt',
  sensitive: true,
  spoiler: 'spoiler\nwarning',
  mentions: ['bob'],
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:01.000Z',
  ...over,
});
const comment = (over: Partial<Comment> = {}): Comment => ({
  commentId: '01935b78-43a2-7000-ac67-3b88f4a6355a',
  message: AWKWARD[7],
  creator: 'bob',
  creatorImage: '/media/avatar/y/96.webp',
  likesCount: 1,
  dislikesCount: 2,
  myReaction: null,
  mentions: [],
  createdAt: '2026-11-24T00:00:02.000Z',
  ...over,
});
const posts = [
  post(),
  post({ imageInfo: null, mentions: undefined, myReaction: null, sensitive: false, tags: [] }),
  post({ imageInfo: { width: 1, height: 2, thumbhash: null, srcset: '' }, creatorImage: '/a.webp', message: '' }),
  post({
    creator: 'zoe@example.social',
    originalUrl: 'https://example.social/@zoe/1',
    originalUri: 'https://example.social/users/zoe/statuses/1',
  }),
];
const comments = [
  comment(),
  comment({ mentions: undefined, myReaction: 'dislike', creatorImage: null }),
  comment({ creator: 'zoe@example.social', originalUri: 'https://example.social/users/zoe/statuses/2' }),
];

describe('post and comment JSON', () => {
  it('holds the same fields, in the same order, as fast-json-stringify writes from the schemas', () => {
    const cases: [string, string][] = [
      [postListJson(posts), fastJson(listOf(postSchema))(posts)],
      [commentListJson(comments), fastJson(listOf(commentSchema))(comments)],
      [
        postWithCommentsJson({ ...post(), comments } satisfies PostWithComments),
        fastJson(postWithCommentsSchema)({ ...post(), comments }),
      ],
    ];
    for (const [ours, theirs] of cases) {
      expect(ours).toMatch(ASCII);
      expect(JSON.stringify(JSON.parse(ours))).toBe(JSON.stringify(JSON.parse(theirs)));
    }
  });

  it('answers the same bytes for posts and comments whose JSON is kept (shared rows) as for fresh ones', () => {
    const fresh = [...posts.map((p) => ({ ...p }))];
    const kept = posts.map((p) => keepPostJson({ ...p }));
    const mixed = [kept[0], fresh[1], kept[2], fresh[3]];
    const text = Buffer.from(postListJson(posts), 'latin1');
    for (const list of [fresh, kept, mixed]) expect(postListBytes(list).equals(text)).toBe(true);
    const keptComments = comments.map((c) => keepCommentJson({ ...c }));
    expect(commentListBytes(keptComments).equals(Buffer.from(commentListJson(comments), 'latin1'))).toBe(true);
    const withComments = { ...kept[0], comments: keptComments } satisfies PostWithComments;
    expect(postWithCommentsBytes(withComments).toString('latin1')).toBe(postWithCommentsJson({ ...post(), comments }));
  });

  it('answers a page of the same kept posts in the same order with the same bytes, made once', () => {
    const kept = posts.map((p) => keepPostJson({ ...p }));
    const text = postListJson(posts);
    const first = postListBytes(kept);
    expect(first.toString('latin1')).toBe(text);
    expect(first.buffer.byteLength).toBe(first.length); // its own, as kept JSON is
    expect(postListBytes([...kept])).toBe(first);
    // Another page, or the same page but one post (a reader's own reaction, new counts): made anew.
    const changed = keepPostJson({ ...kept[2], likesCount: 99 });
    const other = postListBytes([kept[0], kept[1], changed, kept[3]]);
    expect(other).not.toBe(first);
    expect(JSON.parse(other.toString('latin1'))[2].likesCount).toBe(99);
    expect(postListBytes(kept.slice(0, 3))).not.toBe(first);
    // A post not kept (read once) is not in a kept page: such pages are made every time.
    const fresh = [kept[0], { ...posts[1] }];
    expect(postListBytes(fresh)).not.toBe(postListBytes(fresh));
    expect(postListBytes([]).toString()).toBe('[]');
  });

  it('forgets the pages least used once their bytes pass the bound', () => {
    const page = (i: number) => [keepPostJson({ ...post(), _id: `p${i}`, message: 'x'.repeat(10_000) })];
    const oldest = page(0);
    const bytes = postListBytes(oldest);
    const used = page(1);
    const usedBytes = postListBytes(used);
    const fit = Math.floor(KEPT_ARRAYS_BYTES / (2 * bytes.length)); // pages of this size (and their posts') under the bound
    for (let i = 2; i < fit; i++) {
      postListBytes(page(i));
      expect(postListBytes(used)).toBe(usedBytes); // read again: the last to go
    }
    expect(postListBytes(oldest)).toBe(bytes); // still there: the pages are under the bound
    for (let i = 0; i < fit; i++) postListBytes(page(i + fit));
    expect(postListBytes(oldest)).not.toBe(bytes);
  });

  it('keeps JSON in buffers of its own, not in slices of a shared pool one kept row would hold whole', () => {
    const text = postListJson(posts);
    const bytes = keptBytes(text);
    expect(bytes.toString('latin1')).toBe(text);
    expect(bytes.buffer.byteLength).toBe(text.length);
  });

  it('leaves out a field the schema does not name', () => {
    const extra = { ...post(), secret: 'no' } as Post;
    expect(JSON.parse(postListJson([extra]))[0]).not.toHaveProperty('secret');
  });
});

describe('the list routes', () => {
  let t: TestApp;
  let ann: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp();
    ann = await signIn(t.app);
  });
  afterAll(() => t.close());

  it('answer JSON in ASCII with an exact Content-Length, read back as the text that was posted', async () => {
    const message = 'Sunset 🙂 at the café ✨ "quoted"';
    const created = await createPost(t.app, ann, { message });
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${created._id}/comments`,
      headers: ann.headers,
      payload: { message: 'Nice 👍' },
    });
    for (const url of [
      '/api/posts?feed=all',
      `/api/users/${ann.username}/posts`,
      `/api/posts/${created._id}`,
      `/api/posts/${created._id}/comments`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: ann.headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.rawPayload.toString('latin1')).toMatch(ASCII);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      const body = res.json();
      const first = Array.isArray(body) ? body[0] : body;
      expect(first.message).toBe(url.endsWith('/comments') ? 'Nice 👍' : message);
    }
  });
});
