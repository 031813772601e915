/**
 * Where an import's archive is kept while its job waits or runs (`INSTAGRAM_IMPORT_DIR`), and its
 * removal: when the job ends or is cancelled (`service.ts`), and when its person's account goes
 * (`users/deletion.ts`: the job's row goes with the account, so nothing would remove it later).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';

export const archivePath = (dir: string, name: string) => path.join(dir, name);

/** Removes the archives named; one already gone is no error. */
export async function removeArchives(dir: string, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((name) => rm(archivePath(dir, name), { force: true })));
}
