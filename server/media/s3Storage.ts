/**
 * Media in an S3-compatible bucket (AWS S3, Ceph's RADOS Gateway, MinIO...). The bucket, behind a
 * public-read policy, or a CDN in front of it serves the files at `baseUrl`; this server never does.
 */
import { DeleteObjectsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { UnavailableError } from '../domain/errors';
import type { MediaStorage } from './storage';

export const STORAGE_UNAVAILABLE =
  'The media storage is not answering, so the image was not saved. Please try again in a moment.';

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

export function s3Storage(s3: S3Config, baseUrl: string): MediaStorage {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: s3.credentials,
    forcePathStyle: s3.forcePathStyle,
    // The SDK's default checksums (sent as aws-chunked trailers) are rejected by several
    // S3-compatible servers, or stored as part of the object's bytes; send them only where S3 demands one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A server that stops answering must fail the upload, not hold it open for ever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
  });

  return {
    async put(key, bytes, contentType) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: s3.bucket,
            Key: key,
            Body: bytes,
            ContentLength: bytes.length,
            ContentType: contentType,
            // Keys are never reused: a new upload gets a new key, so any cache may keep a file for good.
            CacheControl: 'public, max-age=31536000, immutable',
          }),
        );
      } catch (error) {
        throw new UnavailableError(STORAGE_UNAVAILABLE, 'StorageUnavailable', { cause: error });
      }
    },

    async remove(keys) {
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const batch = keys.slice(start, start + DELETE_BATCH);
        // Quiet: the answer lists only the keys that failed. A missing key is not a failure in S3.
        const { Errors: failed = [] } = await client.send(
          new DeleteObjectsCommand({
            Bucket: s3.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        if (failed.length > 0)
          throw new Error(
            `S3 kept ${failed.length} of ${batch.length} objects: ${failed
              .slice(0, 3)
              .map((f) => `${f.Key} (${f.Code})`)
              .join(', ')}`,
          );
      }
    },

    url: (key) => `${baseUrl}/${key}`,

    close: () => client.destroy(),
  };
}
