/**
 * The instance's VAPID key pair (RFC 8292): from the environment, else from the secrets file,
 * else made once at the first start and added to that file (beside the JWT secret, so a backup
 * carries both). Browsers bind each subscription to this public key: a new pair ends them all.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { SECRETS_FILE, type VapidKeys, type WebPushConfig } from '../config';

export function vapidKeys(webPush: WebPushConfig, dataDir: string): VapidKeys {
  if (webPush.keys) return webPush.keys;
  const file = path.join(dataDir, SECRETS_FILE);
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  if (typeof stored.vapidPublicKey === 'string' && typeof stored.vapidPrivateKey === 'string')
    return { publicKey: stored.vapidPublicKey, privateKey: stored.vapidPrivateKey };
  const made = webpush.generateVAPIDKeys();
  mkdirSync(dataDir, { recursive: true });
  const secrets = { ...stored, vapidPublicKey: made.publicKey, vapidPrivateKey: made.privateKey };
  writeFileSync(file, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  return made;
}
