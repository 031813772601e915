/**
 * Configuration from the environment, with embedded defaults that need no setup:
 * SQLite and media under ./data, secrets generated on first start and kept in ./data.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  dev: boolean;
  dataDir: string;
  databaseUrl: string;
  mediaDir: string;
  /** Public URL prefix of media files: this server's `/media` unless a CDN/S3 URL is set. */
  mediaBaseUrl: string;
  redisUrl: string | null;
  jwtSecret: string;
  /**
   * `PUBLIC_URL`'s origin (`https://posts.example`): the only host answered (421 otherwise) and the
   * only Origin accepted for writes. Null: loopback and the listening address only.
   */
  publicOrigin: string | null;
  /** Cookies get `Secure` when the site is served over HTTPS. */
  secureCookies: boolean;
  trustProxy: boolean;
  logLevel: string;
  contactEmail: string;
  instanceName: string;
  rateLimits: RateLimits;
  /** A reused refresh token inside this window (two tabs racing) is refused without revoking. */
  refreshReuseGraceMs: number;
  /** How long a checked access token is trusted without looking its session up again (0: never). */
  sessionCacheMs: number;
  /** The home feed's in-memory index (server/posts/homeFeed/feedIndex.ts): most posts it holds (0: off). */
  feedIndexMaxPosts: number;
  /** How late home feeds here may see posts and follows written through other instances. */
  homeFeedSyncMs: number;
  /** Uploads no post or profile uses are removed once this old (server/media/unusedMedia.ts; 0: kept). */
  unusedMediaGraceHours: number;
  /** How often an open notification stream gets a comment line, so proxies keep it open. */
  sseHeartbeatMs: number;
}

export interface RateLimits {
  authPerIpPerMinute: number;
  authPerAccountPerMinute: number;
  uploadsPerUserPerMinute: number;
  writesPerUserPerMinute: number;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** Reads the secret from the environment, or from ./data/secrets.json (made on first start). */
function loadSecret(env: Env, dataDir: string): string {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    return env.JWT_SECRET;
  }
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret?: string };
    if (stored.jwtSecret) return stored.jwtSecret;
  }
  const jwtSecret = randomBytes(48).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ jwtSecret }, null, 2) + '\n', { mode: 0o600 });
  return jwtSecret;
}

function originOf(publicUrl: string): string | null {
  if (!publicUrl) return null;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new Error(`PUBLIC_URL must be a URL such as https://posts.example, got "${publicUrl}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`PUBLIC_URL must start with https:// or http://, got "${publicUrl}"`);
  return url.origin;
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const mediaDir = path.resolve(env.MEDIA_DIR ?? path.join(dataDir, 'media'));
  const publicUrl = env.PUBLIC_URL ?? '';
  return {
    host: env.HOST ?? '127.0.0.1',
    port: int(env, 'PORT', 3000),
    dev: env.NODE_ENV === 'development',
    dataDir,
    databaseUrl: env.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'posts.db')}`,
    mediaDir,
    mediaBaseUrl: (env.MEDIA_BASE_URL ?? '/media').replace(/\/$/, ''),
    redisUrl: env.REDIS_URL || null,
    jwtSecret: loadSecret(env, dataDir),
    publicOrigin: originOf(publicUrl),
    secureCookies: env.COOKIE_SECURE ? env.COOKIE_SECURE === 'true' : publicUrl.startsWith('https://'),
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL ?? 'info',
    contactEmail: env.CONTACT_EMAIL ?? 'admin@example.com',
    instanceName: env.INSTANCE_NAME ?? 'Posts',
    rateLimits: {
      authPerIpPerMinute: int(env, 'RATE_LIMIT_AUTH_PER_IP', 20),
      authPerAccountPerMinute: int(env, 'RATE_LIMIT_AUTH_PER_ACCOUNT', 10),
      uploadsPerUserPerMinute: int(env, 'RATE_LIMIT_UPLOADS_PER_USER', 30),
      writesPerUserPerMinute: int(env, 'RATE_LIMIT_WRITES_PER_USER', 120),
    },
    refreshReuseGraceMs: int(env, 'REFRESH_REUSE_GRACE_MS', 10_000),
    sessionCacheMs: int(env, 'SESSION_CACHE_MS', 5_000),
    feedIndexMaxPosts: int(env, 'FEED_INDEX_MAX_POSTS', 5_000_000),
    homeFeedSyncMs: int(env, 'HOME_FEED_SYNC_MS', 1_000),
    unusedMediaGraceHours: int(env, 'UNUSED_MEDIA_GRACE_HOURS', 24),
    sseHeartbeatMs: Math.max(1, int(env, 'SSE_HEARTBEAT_MS', 25_000)),
  };
}
