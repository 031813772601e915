/**
 * Reading an Instagram archive or a Posts export (issue 76) without unpacking it: the zip's central
 * directory is walked entry by entry (yauzl, lazily), and only the entries asked for are inflated,
 * one at a time, each into a buffer capped at its limit. Hostile archives are refused with a message:
 * names outside the archive (`..`, absolute), entries whose declared size or compression ratio
 * says zip bomb (and, while reading, more bytes than declared: yauzl's `validateEntrySizes`),
 * a posts list that is no JSON, or media that are neither photos nor videos.
 */
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { fixMojibake } from './captions';
import { type ArchiveLimits, ArchiveRefused, type FoundArchive, type FoundPost, PHOTO, outside } from './found';
import { ACCOUNT_FILE, POSTS_FILE, exportPostsOf, exportSettingsOf } from './postsExport';

export { ArchiveRefused, type ArchiveLimits } from './found';

/** Inflated over compressed beyond this (for an entry over 1 MB) is a zip bomb, not a photo or a list. */
const MAX_RATIO = 200;
const RATIO_FROM_BYTES = 1024 * 1024;

const VIDEO = /\.(mp4|mov|m4v)$/i;
/** `your_instagram_activity/media/posts_1.json`, or the older `content/posts_1.json`, under any top folder. */
const POSTS_LIST = /^(.*?)(?:your_instagram_activity\/media|content)\/posts_(\d+)\.json$/;

const open = (file: string) =>
  new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, zip) =>
      error ? reject(new ArchiveRefused(`This is not a zip archive Posts can read (${error.message})`)) : resolve(zip),
    ),
  );

/** Every entry of the central directory, in order; `visit` may keep some. Refuses the hostile ones. */
async function walk(zip: ZipFile, limits: ArchiveLimits, visit: (entry: Entry) => void): Promise<void> {
  if (zip.entryCount > limits.entries)
    throw new ArchiveRefused(`The archive holds more than ${limits.entries.toLocaleString('en')} files`);
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      const name = entry.fileName;
      if (outside(name)) return reject(new ArchiveRefused(`The archive names a file outside itself (${name})`));
      const ratio = entry.compressedSize > 0 ? entry.uncompressedSize / entry.compressedSize : Infinity;
      if (entry.uncompressedSize > RATIO_FROM_BYTES && ratio > MAX_RATIO)
        return reject(
          new ArchiveRefused(`The archive looks like a zip bomb: ${name} inflates ${Math.round(ratio)} times`),
        );
      visit(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    zip.once('error', (error: Error) => {
      if (error instanceof ArchiveRefused) return reject(error);
      // yauzl's own check of each name: a `..` step or an absolute path.
      if (/relative path|absolute path/.test(error.message))
        return reject(new ArchiveRefused(`The archive names a file outside itself (${error.message})`));
      reject(new ArchiveRefused(`The archive is damaged (${error.message})`));
    });
    zip.readEntry();
  });
}

/** One entry's bytes, at most `max`: the declared size is checked first, the bytes read as they come. */
function readEntry(zip: ZipFile, entry: Entry, max: number, what: string): Promise<Buffer> {
  if (entry.uncompressedSize > max)
    return Promise.reject(new ArchiveRefused(`${what} is larger than ${Math.floor(max / 1024 / 1024)} MB`));
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(new ArchiveRefused(`${what} cannot be read (${error.message})`));
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > max) {
          stream.destroy();
          reject(new ArchiveRefused(`${what} is larger than it says`));
          return;
        }
        chunks.push(chunk);
      });
      stream.once('error', (e: Error) => reject(new ArchiveRefused(`${what} cannot be read (${e.message})`)));
      stream.once('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

interface RawMedia {
  uri?: unknown;
  creation_timestamp?: unknown;
  title?: unknown;
}
interface RawPost extends RawMedia {
  media?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? fixMojibake(value) : '');
const seconds = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

/** The posts of one list, as Instagram writes them: an array of `{ media: [...], title?, creation_timestamp? }`. */
function postsOf(json: unknown, listName: string, root: string, names: Set<string>, limits: ArchiveLimits) {
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object' && Array.isArray((json as { media?: unknown }).media)
      ? [json]
      : null;
  if (!list) throw new ArchiveRefused(`${listName} is not a list of posts as Instagram writes them`);
  const found: FoundPost[] = [];
  for (const raw of list as RawPost[]) {
    if (!raw || typeof raw !== 'object' || !Array.isArray(raw.media))
      throw new ArchiveRefused(`${listName} is not a list of posts as Instagram writes them`);
    const media = raw.media as RawMedia[];
    const first = media[0] ?? {};
    const stamp = seconds(raw.creation_timestamp) ?? seconds(first.creation_timestamp);
    if (stamp === null) throw new ArchiveRefused(`${listName}: a post has no date (creation_timestamp)`);
    const photos: string[] = [];
    let leftOut = 0;
    for (const item of media) {
      const uri = typeof item?.uri === 'string' ? item.uri : '';
      if (outside(uri)) throw new ArchiveRefused(`${listName} names a file outside the archive (${uri})`);
      if (VIDEO.test(uri)) leftOut++;
      else if (!PHOTO.test(uri))
        throw new ArchiveRefused(`${listName} names ${uri || 'a file'}, which is neither a photo nor a video`);
      else {
        const name = names.has(root + uri) ? root + uri : names.has(uri) ? uri : null;
        if (name === null || photos.length >= limits.photosPerPost) leftOut++;
        else photos.push(name);
      }
    }
    found.push({
      takenAt: new Date(stamp * 1000).toISOString(),
      caption: text(raw.title) || (media.length === 1 ? text(first.title) : ''),
      photos,
      leftOut,
    });
  }
  return found;
}

/** One JSON entry, parsed: refused when larger than the limit or not JSON. */
async function readJson(zip: ZipFile, entry: Entry, limits: ArchiveLimits): Promise<unknown> {
  const bytes = await readEntry(zip, entry, limits.jsonBytes, entry.fileName);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ArchiveRefused(`${entry.fileName} is not valid JSON`);
  }
}

const oldestFirst = (posts: FoundPost[]) => posts.sort((a, b) => a.takenAt.localeCompare(b.takenAt));

/**
 * The posts an archive holds, oldest first, and its kind, told from its contents: a Posts export
 * has account.json and posts.json at its root, an Instagram archive its posts lists. Refuses a
 * hostile or unreadable one.
 */
export async function scanArchive(file: string, limits: ArchiveLimits): Promise<FoundArchive> {
  const zip = await open(file);
  try {
    const names = new Set<string>();
    const lists: { entry: Entry; root: string; n: number }[] = [];
    const exported = new Map<string, Entry>();
    await walk(zip, limits, (entry) => {
      if (entry.fileName.endsWith('/')) return;
      const list = POSTS_LIST.exec(entry.fileName);
      if (list) lists.push({ entry, root: list[1], n: Number(list[2]) });
      else if (entry.fileName === ACCOUNT_FILE || entry.fileName === POSTS_FILE) exported.set(entry.fileName, entry);
      else if (PHOTO.test(entry.fileName)) names.add(entry.fileName);
    });
    const account = exported.get(ACCOUNT_FILE);
    const postsList = exported.get(POSTS_FILE);
    if (account && postsList) {
      const settings = exportSettingsOf(await readJson(zip, account, limits));
      const posts = exportPostsOf(await readJson(zip, postsList, limits), names, limits);
      return { kind: 'posts', posts: oldestFirst(posts), settings };
    }
    if (lists.length === 0)
      throw new ArchiveRefused(
        'No posts in this archive: Instagram’s JSON download has your_instagram_activity/media/posts_1.json (or content/posts_1.json), a Posts export account.json and posts.json',
      );
    const posts: FoundPost[] = [];
    for (const { entry, root } of lists.sort((a, b) => a.n - b.n)) {
      posts.push(...postsOf(await readJson(zip, entry, limits), entry.fileName, root, names, limits));
      if (posts.length > limits.posts)
        throw new ArchiveRefused(`The archive holds more than ${limits.posts.toLocaleString('en')} posts`);
    }
    return { kind: 'instagram', posts: oldestFirst(posts), settings: null };
  } finally {
    zip.close();
  }
}

/** The archive opened for a job: the photos asked for, read one at a time. */
export async function openPhotos(file: string, wanted: Set<string>, limits: ArchiveLimits) {
  const zip = await open(file);
  const entries = new Map<string, Entry>();
  try {
    await walk(zip, limits, (entry) => {
      if (wanted.has(entry.fileName)) entries.set(entry.fileName, entry);
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  return {
    async read(name: string): Promise<Buffer> {
      const entry = entries.get(name);
      if (!entry) throw new ArchiveRefused(`${name} is not in the archive`);
      return readEntry(zip, entry, limits.photoBytes, name.slice(name.lastIndexOf('/') + 1));
    },
    close: () => zip.close(),
  };
}
