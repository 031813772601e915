/**
 * Mastodon's push payload names the access token it belongs to (`access_token`), so an app with
 * several accounts knows whose it is; tokens are stored as hashes only, so a client API
 * subscription keeps its token sealed (AES-256-GCM, a key derived from the server secret).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export function tokenSealer(serverSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, '', 'posts push access token', 32));
  return {
    seal(token: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    /** Null when it does not open (the server secret changed since). */
    open(sealed: string): string | null {
      try {
        const bytes = Buffer.from(sealed, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

export type TokenSealer = ReturnType<typeof tokenSealer>;
