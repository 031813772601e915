/** The media storage the configuration asks for: an S3 bucket when `S3_BUCKET` is set, else the local disk. */
import type { Config } from '../config';
import { localStorage } from './localStorage';
import { s3Storage } from './s3Storage';
import type { MediaStorage } from './storage';

export function mediaStorageFor(config: Pick<Config, 's3' | 'mediaDir' | 'mediaBaseUrl'>): MediaStorage {
  return config.s3 ? s3Storage(config.s3, config.mediaBaseUrl) : localStorage(config.mediaDir, config.mediaBaseUrl);
}
