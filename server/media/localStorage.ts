/** Media on local disk (default `./data/media`), served by this server under `/media/`. */
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaStorage } from './storage';

export function localStorage(root: string, baseUrl: string): MediaStorage & { root: string } {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep))
      throw new Error(`Storage key escapes the media folder: ${key}`);
    return full;
  };
  return {
    root,
    async put(key, bytes) {
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true });
      // Write then rename, so a crash never leaves a half-written file under the real name.
      const temp = `${full}.${process.pid}.tmp`;
      try {
        await writeFile(temp, bytes);
        await rename(temp, full);
      } catch (error) {
        // A full disk leaves part of the bytes in the temporary file: nothing half-written stays.
        await rm(temp, { force: true }).catch(() => {});
        throw error;
      }
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => rm(resolve(key), { force: true })));
      // Keys are `<preset>/<mediaId>/<file>`: drop the media's folder once it is empty.
      const folders = new Set(keys.map((key) => path.dirname(resolve(key))));
      await Promise.all([...folders].map((folder) => rmdir(folder).catch(() => {})));
    },
    read: (key) => createReadStream(resolve(key)),
    url: (key) => `${baseUrl}/${key}`,
  };
}
