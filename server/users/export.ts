/**
 * A user's data export: one zip with account.json, posts.json (every photo of each, issue 71), comments.json, reactions.json, saved.json, tags.json,
 * follows.json, relations.json (blocks and mutes), notifications.json and the images they uploaded. Streamed: each JSON file is written from keyset pages
 * as the zip reaches it, each image read from storage only when its turn comes, so neither the
 * rows nor the files are ever held in memory at once.
 */
import { cropOfColumn } from '../../lib/photoCrop';
import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Transactional } from '../db/repository';
import type { AuthUser } from '../domain/types';
import type { MediaStorage } from '../media/storage';
import type { AccountRepository } from './accountRepository';
import { toUser } from './mappers';
import type { UsersRepository } from './repository';

/** Rows read per query. */
const PAGE = 500;

/** A JSON array written row by row from pages of `read(after)`, each page after the last row's key. */
function jsonArray<R>(read: (after: string) => Promise<R[]>, keyOf: (row: R) => string, toJson: (row: R) => unknown) {
  async function* chunks() {
    yield '[';
    let after = '';
    let first = true;
    for (;;) {
      const rows = await read(after);
      for (const row of rows) {
        yield `${first ? '\n  ' : ',\n  '}${JSON.stringify(toJson(row))}`;
        first = false;
      }
      if (rows.length < PAGE) break;
      after = keyOf(rows[rows.length - 1]);
    }
    yield first ? ']\n' : '\n]\n';
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Several named arrays in one JSON object, each streamed as above. */
function jsonObjectOf(parts: [string, () => Readable][]) {
  async function* chunks() {
    yield '{';
    for (const [index, [name, open]] of parts.entries()) {
      yield `${index === 0 ? '\n' : ',\n'}${JSON.stringify(name)}: `;
      for await (const chunk of open()) yield chunk as Buffer;
    }
    yield '\n}\n';
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * An image whose file went meanwhile (the unused-upload sweeper) becomes an empty entry rather than
 * breaking the whole download; any other read error still does.
 */
function unlessGone(file: Readable): Readable {
  const out = new PassThrough();
  file.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? out.end() : out.destroy(error)));
  return file.pipe(out);
}

export interface ExportDeps {
  data: Transactional<{ users: UsersRepository; account: AccountRepository }>;
  storage: MediaStorage;
  twoFactorEnabled: (userId: string) => Promise<boolean>;
}

export function accountExport({ data, storage, twoFactorEnabled }: ExportDeps) {
  const { users, account } = data;
  const mediaPrefix = storage.url('');
  /** Where the zip holds an upload of this server, by its public URL (null for any other URL). */
  const fileOf = (url: string | null) =>
    url && url.startsWith(mediaPrefix) ? `images/${url.slice(mediaPrefix.length)}` : null;

  return {
    async open(user: AuthUser): Promise<{ filename: string; stream: Readable }> {
      const row = (await users.findUserById(user.id))!;
      const zip = new ZipFile();
      // A failed read (database, storage) ends the download as broken rather than the process.
      zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
      const accountJson = {
        ...toUser(row),
        avatarFile: fileOf(row.avatar),
        bannerFile: fileOf(row.banner),
        twoFactorEnabled: await twoFactorEnabled(user.id),
        exportedAt: new Date().toISOString(),
      };
      zip.addBuffer(Buffer.from(`${JSON.stringify(accountJson, null, 2)}\n`), 'account.json');
      const lazy = (name: string, open: () => Readable) => zip.addReadStreamLazy(name, (done) => done(null, open()));
      lazy('posts.json', () =>
        jsonArray(
          async (after) => {
            const page = await account.postsPage(user.id, after, PAGE);
            const photos = await account.photosOfPosts(page.map((p) => p.id));
            // A post without album rows (written straight into the database): its own image.
            return page.map((p) => ({ ...p, photos: photos.get(p.id) ?? [p] }));
          },
          (p) => p.id,
          (p) => ({
            _id: p.id,
            message: p.message,
            image: p.image,
            imageFile: fileOf(p.image),
            tags: JSON.parse(p.tags) as string[],
            alt: p.alt,
            sensitive: Boolean(p.sensitive),
            spoiler: p.spoiler,
            // Where feeds crop the photo, as the posts API writes it.
            crop: cropOfColumn(p.crop),
            // Every photo in order (issue 71), each file in the zip's images/ as the first's.
            images: p.photos.map((photo) => ({
              image: photo.image,
              imageFile: fileOf(photo.image),
              alt: photo.alt,
              crop: cropOfColumn(photo.crop),
            })),
            audience: p.audience,
            likesCount: Number(p.likes_count),
            dislikesCount: Number(p.dislikes_count),
            commentsCount: Number(p.comments_count),
            createdAt: p.created_at,
            updatedAt: p.updated_at,
          }),
        ),
      );
      lazy('comments.json', () =>
        jsonArray(
          (after) => account.commentsPage(user.id, after, PAGE),
          (c) => c.id,
          (c) => ({
            commentId: c.id,
            postId: c.post_id,
            message: c.message,
            likesCount: Number(c.likes_count),
            dislikesCount: Number(c.dislikes_count),
            createdAt: c.created_at,
          }),
        ),
      );
      lazy('reactions.json', () =>
        jsonObjectOf([
          [
            'posts',
            () =>
              jsonArray(
                (after) => account.postReactionsPage(user.id, after, PAGE),
                (r) => r.id,
                (r) => ({ postId: r.id, kind: r.kind, createdAt: r.created_at }),
              ),
          ],
          [
            'comments',
            () =>
              jsonArray(
                (after) => account.commentReactionsPage(user.id, after, PAGE),
                (r) => r.id,
                (r) => ({ commentId: r.id, kind: r.kind, createdAt: r.created_at }),
              ),
          ],
        ]),
      );
      // The posts they saved (issue 73), by id: the posts themselves are their authors'.
      lazy('saved.json', () =>
        jsonArray(
          (after) => account.savedPostsPage(user.id, after, PAGE),
          (r) => r.id,
          (r) => ({ postId: r.id, savedAt: r.created_at }),
        ),
      );
      // The tags they follow (issue 73).
      lazy('tags.json', () =>
        jsonArray(
          (after) => account.followedTagsPage(user.id, after, PAGE),
          (r) => r.id,
          (r) => ({ name: r.name, followedAt: r.created_at }),
        ),
      );
      lazy('follows.json', () =>
        jsonObjectOf(
          (['following', 'followers'] as const).map((side) => [
            side,
            () =>
              jsonArray(
                (after) => account.followsPage(user.id, side, after, PAGE),
                (f) => f.id,
                (f) => ({ username: f.username, since: f.created_at }),
              ),
          ]),
        ),
      );
      lazy('relations.json', () =>
        jsonObjectOf(
          (['blocks', 'mutes'] as const).map((relation) => [
            relation,
            () =>
              jsonArray(
                (after) => account.relationsPage(user.id, relation, after, PAGE),
                (r) => r.id,
                (r) => ({ username: r.username, since: r.created_at }),
              ),
          ]),
        ),
      );
      lazy('notifications.json', () =>
        jsonArray(
          (after) => account.notificationsPage(user.id, after, PAGE),
          (n) => n.id,
          (n) => ({
            type: n.type,
            actor: n.actor,
            postId: n.post_id,
            commentId: n.comment_id,
            readAt: n.read_at,
            createdAt: n.created_at,
          }),
        ),
      );
      // Images are listed page by page while the zip already streams; each file opens at its turn.
      void (async () => {
        let after = '';
        for (;;) {
          const media = await account.mediaPage(user.id, after, PAGE);
          for (const m of media)
            zip.addReadStreamLazy(`images/${m.storage_key}`, { compress: false }, (done) =>
              done(null, unlessGone(storage.read(m.storage_key))),
            );
          if (media.length < PAGE) break;
          after = media[media.length - 1].id;
        }
        zip.end();
      })().catch((error: unknown) => (zip.outputStream as Readable).destroy(error as Error));
      const day = new Date().toISOString().slice(0, 10);
      return { filename: `posts-${row.username}-${day}.zip`, stream: zip.outputStream as Readable };
    },
  };
}

export type AccountExport = ReturnType<typeof accountExport>;
