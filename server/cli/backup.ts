/** `npm run backup -- --out FILE`: a consistent archive of the configured instance while it runs (server/backup/backup.ts). */
import { BackupError } from '../backup/archive';
import { makeBackup } from '../backup/backup';

const at = process.argv.indexOf('--out');
const out = at === -1 ? undefined : process.argv[at + 1];
if (!out) {
  console.error('Usage: npm run backup -- --out FILE (e.g. --out backups/posts-2026-11-26.tar.gz)');
  process.exit(1);
}
try {
  const { manifest, missing } = await makeBackup(out);
  console.log(
    `Backed up the ${manifest.dialect} database (schema ${manifest.schemaVersion}), ` +
      `${manifest.media.files - missing.length} media files and the secrets ${manifest.secrets === 'file' ? 'file' : '(none: JWT_SECRET is set)'} to ${out}.`,
  );
  if (missing.length > 0)
    console.log(
      `${missing.length} media files were deleted while the backup ran and are not in it: ${missing.join(', ')}`,
    );
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
}
