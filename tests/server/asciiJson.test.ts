/**
 * The hand-written JSON of the post and comment lists (`server/http/asciiJson.ts`): ASCII only,
 * read back as the same values, and the same fields as the response schemas say.
 */
import fastJson from 'fast-json-stringify';
import type { Comment, Post, PostWithComments } from '../../lib/types';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { commentListJson, postWithCommentsJson } from '../../server/comments/json';
import { AsciiBodiesResponse, markAsciiBody } from '../../server/http/asciiBodies';
import { jsonString, keptBytes, keptText } from '../../server/http/asciiJson';
import { commentSchema, listOf, postSchema, postWithCommentsSchema } from '../../server/http/schemas';
import { postListJson } from '../../server/posts/json';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

// V8's own answers on a string's shape: whether it is one flat string, whether two are one object.
setFlagsFromString('--allow-natives-syntax');
const isFlat = new Function('s', 'return %StringIsFlat(s)') as (s: string) => boolean;
const isSameHeapObject = new Function('a', 'b', 'return %IsSameHeapObject(a, b)') as (a: string, b: string) => boolean;

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
  audience: 'public',
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
  images: [
    {
      image: '/media/post/x/1080.jpg',
      imageInfo: { width: 1080, height: 810, thumbhash: 'rOkCBYRfd2d7', srcset: '/media/post/x/540.webp 540w' },
      alt: 'a "quoted" alt',
      crop: { x: 0.5, y: 0.5, fit: false },
    },
  ],
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
  // A saved post a followed tag brought to the home feed (issue 73).
  post({ savedByMe: true, reason: { tag: AWKWARD[5] } }),
  post({ importedFrom: 'instagram' }),
  post({ imageInfo: { width: 1, height: 2, thumbhash: null, srcset: '' }, creatorImage: '/a.webp', message: '' }),
  post({
    crop: { x: 0.25, y: 1, fit: false },
    images: [
      { image: '/media/post/a/1080.jpg', imageInfo: null, alt: '', crop: { x: 0.25, y: 1, fit: false } },
      {
        image: '/media/post/b/1080.jpg',
        imageInfo: { width: 3, height: 4, thumbhash: null, srcset: '' },
        alt: AWKWARD[5],
        crop: { x: 0.5, y: 0.5, fit: true },
      },
    ],
  }),
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

  it('keeps a copy of the text, and bytes in buffers of their own (not slices of a shared pool one kept row would hold whole)', () => {
    const text = postListJson(posts);
    // Built with `+`, the text is a tree of its pieces; what is kept is one flat string of its own.
    expect(isFlat(text)).toBe(false);
    const kept = keptText(text);
    expect(isSameHeapObject(kept, text)).toBe(false);
    expect(isFlat(kept)).toBe(true);
    expect(kept).toBe(text);
    const bytes = keptBytes(text);
    expect(bytes.toString('latin1')).toBe(text);
    expect(bytes.buffer.byteLength).toBe(text.length);
  });

  it('leaves out a field the schema does not name', () => {
    const extra = { ...post(), secret: 'no' } as Post;
    expect(JSON.parse(postListJson([extra]))[0]).not.toHaveProperty('secret');
  });
});

describe('answers written as latin1 (AsciiBodiesResponse)', () => {
  /** The bytes a server answers for `write(res)`, its answers made by AsciiBodiesResponse. */
  async function bytesOf(write: (res: AsciiBodiesResponse) => void): Promise<Buffer> {
    const server = createServer({ ServerResponse: AsciiBodiesResponse }, (_req, res) => write(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return Buffer.from(await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer());
    } finally {
      server.close();
    }
  }

  it('writes the string of a marked answer as latin1, and any other as UTF-8', async () => {
    // 'é' tells the encodings apart: one byte (e9) in latin1, two (c3 a9) in UTF-8.
    const marked = await bytesOf((res) => {
      markAsciiBody(res);
      res.end('[\u00e9]', null, null);
    });
    expect(marked).toEqual(Buffer.from([0x5b, 0xe9, 0x5d]));
    const plain = await bytesOf((res) => res.end('[\u00e9]'));
    expect(plain).toEqual(Buffer.from('[\u00e9]', 'utf8'));
    // A marked answer with a Buffer, or an encoding of its own, is written as it says.
    expect(await bytesOf((res) => (markAsciiBody(res), res.end(Buffer.from('ok'))))).toEqual(Buffer.from('ok'));
    expect(await bytesOf((res) => (markAsciiBody(res), res.end('\u00e9', 'utf8')))).toEqual(
      Buffer.from('\u00e9', 'utf8'),
    );
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

  it('answer the same bytes through a socket (written as latin1) as through inject', async () => {
    const message = 'Over the wire 🙂 café';
    const created = await createPost(t.app, ann, { message });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (const url of ['/api/posts?feed=all', `/api/users/${ann.username}/posts`, `/api/posts/${created._id}`]) {
      const res = await fetch(address + url, { headers: { cookie: ann.headers.cookie } });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.status, url).toBe(200);
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      expect(bytes.toString('latin1')).toMatch(ASCII);
      const injected = await t.app.inject({ method: 'GET', url, headers: ann.headers });
      expect(bytes.equals(injected.rawPayload), url).toBe(true);
    }
    // An answer the schema's serializer writes (raw UTF-8, not ASCII) stays UTF-8 on the same connections.
    const added = await fetch(`${address}/api/posts/${created._id}/comments`, {
      method: 'POST',
      headers: { cookie: ann.headers.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Nice 👍 é' }),
    });
    const bytes = Buffer.from(await added.arrayBuffer());
    expect(added.status).toBe(201);
    expect(Number(added.headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8')).message).toBe('Nice 👍 é');
  });
});
