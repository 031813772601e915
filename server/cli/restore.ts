/** `npm run restore -- FILE`: a backup into an empty DATA_DIR (and empty PostgreSQL database) (server/backup/restore.ts). */
import { BackupError } from '../backup/archive';
import { restoreBackup } from '../backup/restore';

const file = process.argv[2];
if (!file) {
  console.error(
    'Usage: npm run restore -- FILE (into an empty DATA_DIR; on PostgreSQL DATABASE_URL names an empty database)',
  );
  process.exit(1);
}
try {
  const { manifest, mediaFiles, missing } = await restoreBackup(file);
  console.log(
    `Restored the ${manifest.dialect} database of ${manifest.createdAt} (schema ${manifest.schemaVersion}) and ${mediaFiles} media files. Start the app: npm start`,
  );
  if (missing.length > 0) console.log(`${missing.length} media files were not in the backup: ${missing.join(', ')}`);
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
}
