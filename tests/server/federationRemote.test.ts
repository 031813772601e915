/**
 * The pieces that turn what other servers send into what this instance keeps (issue 32): their
 * HTML as text, the tag line left out, and images fetched once into this instance's media through
 * the upload pipeline (a real loopback server, a real database and storage); anything that is not
 * an image the pipeline takes is null, never a throw.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { UPLOAD_MAX_BYTES } from '../../lib/limits';
import { storeRemoteImage } from '../../server/federation/remoteImages';
import { withoutTagLine } from '../../server/federation/remoteContent';
import { textOfHtml } from '../../server/federation/remoteText';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { makeJpeg } from './multipart';

describe('their HTML as text', () => {
  it('keeps paragraphs and line breaks, drops tags, decodes entities', () => {
    expect(
      textOfHtml('<p>Hello <b>world</b> &amp; friends</p><p>line one<br>line two<br/>&#x1F600; &#39;q&#39;</p>'),
    ).toBe("Hello world & friends\n\nline one\nline two\n😀 'q'");
    expect(textOfHtml('<p>&unknown; &#0; stays</p>')).toBe('&unknown; &#0; stays');
  });

  it('leaves out a last line of hashtags only', () => {
    expect(withoutTagLine('A sunny day\n\n#sun #beach')).toBe('A sunny day');
    expect(withoutTagLine('#sun alone')).toBe('#sun alone');
    expect(withoutTagLine('Look at #sun today')).toBe('Look at #sun today');
    // By the shared hashtag rule: a last line that is not hashtags alone stays.
    expect(withoutTagLine('A sunny day\n#sun #日本語 #café')).toBe('A sunny day');
    expect(withoutTagLine('A sunny day\n#sun!')).toBe('A sunny day\n#sun!');
    expect(withoutTagLine('A sunny day\n#1 #2')).toBe('A sunny day\n#1 #2');
  });
});

describe('images from elsewhere', () => {
  let t: TestApp;
  let owner: SignedInUser;
  let server: Server;
  let base: string;
  let jpeg: Buffer;
  let webp: Buffer;

  beforeAll(async () => {
    jpeg = await makeJpeg(80, 60);
    webp = await sharp(jpeg).webp().toBuffer();
    t = await createTestApp();
    owner = await signIn(t.app);
    server = createServer((req, res) => {
      if (req.url === '/photo.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.end(jpeg);
      } else if (req.url === '/photo.webp') {
        res.writeHead(200, { 'content-type': 'image/webp' });
        res.end(webp);
      } else if (req.url === '/notimage') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.end('this is not an image');
      } else if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        // More than the cap, sent without a length: the fetch stops reading past it.
        res.end(Buffer.alloc(UPLOAD_MAX_BYTES + 1024));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('stores a JPEG as one of this instance’s uploads, owned by the person', async () => {
    const stored = await storeRemoteImage(t.app.ctx.media, owner.id, 'post', `${base}/photo.jpg`, true);
    expect(stored?.url).toMatch(/^\/media\/post\//);
    const row = await t.db.kysely
      .selectFrom('media')
      .selectAll()
      .where('id', '=', stored!.mediaId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ owner_id: owner.id, preset: 'post', width: 80, height: 60 });
    const served = await t.app.inject({ method: 'GET', url: stored!.url });
    expect(served.statusCode).toBe(200);
  });

  it('takes a WebP as other servers send them: decoded once and stored as an upload', async () => {
    const stored = await storeRemoteImage(t.app.ctx.media, owner.id, 'post', `${base}/photo.webp`, true);
    expect(stored?.url).toMatch(/^\/media\/post\//);
    const row = await t.db.kysely
      .selectFrom('media')
      .select(['width', 'height'])
      .where('id', '=', stored!.mediaId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ width: 80, height: 60 });
  });

  it('is null for a missing image, bytes that are no image, one over the cap, or an address that is not http', async () => {
    for (const url of [`${base}/gone.jpg`, `${base}/notimage`, `${base}/huge`, 'file:///etc/passwd', 'data:,x'])
      expect(await storeRemoteImage(t.app.ctx.media, owner.id, 'post', url, true), url).toBeNull();
  });

  it('is null for an image on a loopback address unless FEDERATION_ALLOW_PRIVATE allows it', async () => {
    expect(await storeRemoteImage(t.app.ctx.media, owner.id, 'post', `${base}/photo.jpg`, false)).toBeNull();
  });
});
