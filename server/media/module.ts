/** Uploads wired: the media service and the sweeper of uploads never used (`context.ts`, `app.ts`). */
import type { Config } from '../config';
import type { Db } from '../db/database';
import { mediaService } from './service';
import type { MediaStorage } from './storage';
import { removeUnusedMedia, unusedMediaSweeper } from './unusedMedia';

type Log = {
  info(message: string): void;
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
};

export function mediaFeature({
  config,
  db,
  storage,
  log,
}: {
  config: Config;
  db: Db;
  storage: MediaStorage;
  log: Log;
}) {
  return {
    // An upload answers once its main variant is stored; the other variants follow right after.
    media: mediaService({
      db: db.kysely,
      storage,
      deferVariants: true,
      onDeferredError: (error) => log.error({ err: error }, 'storing the other variants of an upload failed'),
    }),
    sweeper:
      config.unusedMediaGraceHours > 0
        ? unusedMediaSweeper((before) => removeUnusedMedia(db.kysely, storage, before), {
            graceMs: config.unusedMediaGraceHours * 3_600_000,
            onDone: (removed) => removed > 0 && log.info(`Removed ${removed} unused uploads`),
            onError: (error) => log.warn({ err: error }, 'Removing unused uploads failed; trying again later'),
          })
        : null,
  };
}
