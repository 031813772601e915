/**
 * Configuration from the environment, with embedded defaults that need no setup:
 * SQLite and media under ./data, secrets generated on first start and kept in ./data.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { POST_IMAGES_CEILING, POST_IMAGES_DEFAULT } from '../../lib/limits';

export interface Config {
  host: string;
  port: number;
  dev: boolean;
  dataDir: string;
  databaseUrl: string;
  mediaDir: string;
  /** Public URL prefix of media files: this server's `/media` unless a CDN/S3 URL is set. */
  mediaBaseUrl: string;
  /** Media in an S3-compatible bucket (`S3_BUCKET` set) instead of `mediaDir`. */
  s3: S3Config | null;
  redisUrl: string | null;
  /**
   * Longest wait for one Redis command (`REDIS_COMMAND_TIMEOUT_MS`): past it the step runs in this
   * process instead (`instance/redisFallback.ts`), so a Redis that accepts connections but never
   * answers cannot hold requests.
   */
  redisCommandTimeoutMs: number;
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
  /** Names this process in `GET /api/instance/health`, to tell instances apart behind a balancer. */
  instanceId: string;
  rateLimits: RateLimits;
  /** A reused refresh token inside this window (two tabs racing) is refused without revoking. */
  refreshReuseGraceMs: number;
  /** How long a checked access token is trusted without looking its session up again (0: never). */
  sessionCacheMs: number;
  /** How long posts, list pages and readers' blocks and mutes stay cached without a message (`postCache.ts`). */
  postCacheMs: number;
  /** The home feed's in-memory index (server/posts/homeFeed/feedIndex.ts): most posts it holds (0: off). */
  feedIndexMaxPosts: number;
  /** How late home feeds here may see posts and follows written through other instances. */
  homeFeedSyncMs: number;
  /** How often Explore's trends are worked out again in the background (`explore/trends.ts`; 0: only when forgotten). */
  trendsRefreshMs: number;
  /**
   * With Redis: how often each instance says on the bus the last number it sent; a publisher not
   * heard for 3.5 times this makes the caches start over (`instance/busSequence.ts`).
   */
  busHeartbeatMs: number;
  /** SQLite: how late a commit by another process may be noticed (`cache/outsideWrites.ts`; 0: every request). */
  outsideWritesCheckMs: number;
  /** Photos one post holds at most (`MAX_POST_IMAGES`, 1 to 20; issue 71). */
  maxPostImages: number;
  /**
   * Instagram archives being imported (issue 76): where each is kept until its job ends
   * (`INSTAGRAM_IMPORT_DIR`, `imports` in `DATA_DIR`) and how large one may be
   * (`INSTAGRAM_IMPORT_MAX_BYTES`, 2 GiB).
   */
  instagramImport: { dir: string; maxBytes: number };
  /** Uploads no post or profile uses are removed once this old (server/media/unusedMedia.ts; 0: kept). */
  unusedMediaGraceHours: number;
  /** How often an open notification stream gets a comment line, so proxies keep it open. */
  sseHeartbeatMs: number;
  /** Streams one process holds at most; null: half its open-file limit (`instance/fileLimit.ts`). */
  sseStreamsMax: number | null;
  sseStreamsPerIp: number;
  /** A request's headers and body must have arrived within this time (408 and the socket closed after). */
  requestTimeoutMs: number;
  /** Past this event-loop delay the server answers 503 instead of queueing more (0: never; the tests). */
  maxEventLoopDelayMs: number;
  /** Where mail goes (`smtp://user:pass@host:587`); null: each message is written to the log. */
  smtpUrl: string | null;
  /** The sender of every message. */
  mailFrom: string;
  /** The start of the links in mails: `PUBLIC_URL`'s origin, else this server's own address. */
  siteUrl: string;
  /** `GET /metrics` on its own listener (`METRICS_PORT`, 0: any free port); null: no such listener. */
  metricsPort: number | null;
  metricsHost: string;
  /** `GET /metrics` on the public port with `Authorization: Bearer <token>`; null: 404 there. */
  metricsToken: string | null;
  /** ActivityPub (issue 32): null when off (no `PUBLIC_URL`, or `FEDERATION=false`). */
  federation: FederationConfig | null;
  /** Web Push (issue 74): null when off (`WEB_PUSH=false`). */
  webPush: WebPushConfig | null;
}

export interface WebPushConfig {
  /**
   * `VAPID_PUBLIC_KEY` and `VAPID_PRIVATE_KEY` (base64url, as `web-push generate-vapid-keys`
   * prints them); null: generated at the first start into the secrets file (`push/vapid.ts`).
   */
  keys: VapidKeys | null;
  /** RFC 8292's `sub`: how a push service reaches the operator (`VAPID_SUBJECT`, else `mailto:CONTACT_EMAIL`). */
  subject: string;
  /**
   * Endpoints at `http://` and private or loopback addresses (`WEB_PUSH_ALLOW_PRIVATE=true`, the
   * default with `NODE_ENV=development`): tests, local trials; else `https://` public hosts only.
   */
  allowPrivateAddress: boolean;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface FederationConfig {
  /** `PUBLIC_URL`'s origin: every actor and object URI starts with it. */
  origin: string;
  /** Fetch from and deliver to private and loopback addresses (`FEDERATION_ALLOW_PRIVATE=true`): tests, local trials. */
  allowPrivateAddress: boolean;
}

/** Metrics are collected only when someone may read them (the listener or the token). */
export const metricsEnabled = (config: Pick<Config, 'metricsPort' | 'metricsToken'>): boolean =>
  config.metricsPort !== null || config.metricsToken !== null;

export interface RateLimits {
  authPerIpPerMinute: number;
  authPerAccountPerMinute: number;
  uploadsPerUserPerMinute: number;
  writesPerUserPerMinute: number;
  /** Wrong two-factor codes per minute per account before it is locked for a doubling while. */
  twoFactorPerAccountPerMinute: number;
  /** Data exports per hour per user (each one reads every row and image of the account). */
  exportsPerUserPerHour: number;
  /** Reports per hour per user (issue 23): a flood of reports is spam of its own. */
  reportsPerUserPerHour: number;
  mentionsPerUserPerMinute: number;
  /** Mention suggestions (`GET /api/people/suggest`) per minute per user: one per debounced keystroke. */
  suggestionsPerUserPerMinute: number;
  /** Password-reset and verification mails per hour to one address (or from one signed-in user). */
  mailsPerAddressPerHour: number;
  /** Activities per minute one server (the signing key's host) may post to the inboxes (0: no limit). */
  inboxPerDomainPerMinute: number;
}

export interface S3Config {
  /** `S3_ENDPOINT`; unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Unset: the SDK's usual credential chain (AWS_* variables, instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `http://host/bucket/key` rather than `http://bucket.host/key` (most self-hosted servers). */
  forcePathStyle: boolean;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** `MAX_POST_IMAGES`: a wrong value stops the start rather than quietly holding posts to another limit. */
function maxPostImagesOf(env: Env): number {
  const value = int(env, 'MAX_POST_IMAGES', POST_IMAGES_DEFAULT);
  if (value < 1 || value > POST_IMAGES_CEILING)
    throw new Error(`MAX_POST_IMAGES must be from 1 to ${POST_IMAGES_CEILING}, got "${env.MAX_POST_IMAGES}"`);
  return value;
}

/** The file in `DATA_DIR` that keeps the generated secrets (a backup carries it). */
export const SECRETS_FILE = 'secrets.json';

/** Reads the secret from the environment, or from ./data/secrets.json (made on first start). */
function loadSecret(env: Env, dataDir: string): string {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    return env.JWT_SECRET;
  }
  const file = path.join(dataDir, SECRETS_FILE);
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

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The S3 settings when `S3_BUCKET` is set; refuses a half-made setup at start rather than at the first upload. */
function s3Of(env: Env, mediaBaseUrl: string): S3Config | null {
  const bucket = env.S3_BUCKET ?? '';
  if (!bucket) return null;
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint && !isHttpUrl(endpoint))
    throw new Error(`S3_ENDPOINT must be a URL such as http://127.0.0.1:7480, got "${endpoint}"`);
  // The browser loads the images from the bucket (or a CDN) directly: only an absolute URL can say where.
  if (!isHttpUrl(mediaBaseUrl))
    throw new Error(
      `MEDIA_BASE_URL must be the public http(s) URL that serves the bucket's objects when S3_BUCKET is set, got "${mediaBaseUrl}"`,
    );
  const accessKeyId = env.S3_ACCESS_KEY_ID ?? '';
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY ?? '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  const pathStyle = env.S3_FORCE_PATH_STYLE || 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false')
    throw new Error(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  return {
    endpoint,
    region: env.S3_REGION || 'us-east-1',
    bucket,
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === 'true',
  };
}

/** Without `PUBLIC_URL`, links name this server as a local browser reaches it. */
function ownSiteUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Shorter tokens could be guessed; a scraper's token is set once, so asking for 16 characters costs nothing. */
const METRICS_TOKEN_MIN_LENGTH = 16;

function metricsTokenOf(raw: string): string | null {
  if (!raw) return null;
  if (raw.length < METRICS_TOKEN_MIN_LENGTH)
    throw new Error(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`);
  return raw;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

/** On when the instance knows its public address: other servers must reach its actors there. */
function federationOf(env: Env, publicOrigin: string | null): FederationConfig | null {
  const wanted = flag(env, 'FEDERATION', publicOrigin !== null);
  if (!wanted) return null;
  if (!publicOrigin)
    throw new Error('FEDERATION=true needs PUBLIC_URL: other servers find this instance’s people at that address');
  return { origin: publicOrigin, allowPrivateAddress: flag(env, 'FEDERATION_ALLOW_PRIVATE', false) };
}

/** A VAPID key as web-push writes it: base64url of a P-256 point (65 bytes) or scalar (32 bytes). */
function vapidKeyOf(name: string, raw: string, bytes: number): string {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(raw) || Buffer.from(raw, 'base64url').length !== bytes)
    throw new Error(`${name} must be ${bytes} bytes in base64url (npx web-push generate-vapid-keys prints a pair)`);
  return raw.replace(/=+$/, '');
}

/** A pasted pair whose halves do not belong together would sign every push in vain. */
function isVapidPair({ publicKey, privateKey }: VapidKeys): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey().toString('base64url') === publicKey;
  } catch {
    return false;
  }
}

function webPushOf(env: Env, contactEmail: string): WebPushConfig | null {
  if (!flag(env, 'WEB_PUSH', true)) return null;
  const publicKey = env.VAPID_PUBLIC_KEY ?? '';
  const privateKey = env.VAPID_PRIVATE_KEY ?? '';
  if (Boolean(publicKey) !== Boolean(privateKey))
    throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  const subject = env.VAPID_SUBJECT || `mailto:${contactEmail}`;
  if (!/^(mailto:|https:\/\/)/.test(subject))
    throw new Error(`VAPID_SUBJECT must be a mailto: or https:// address, got "${subject}"`);
  const keys = publicKey
    ? {
        publicKey: vapidKeyOf('VAPID_PUBLIC_KEY', publicKey, 65),
        privateKey: vapidKeyOf('VAPID_PRIVATE_KEY', privateKey, 32),
      }
    : null;
  if (keys && !isVapidPair(keys)) throw new Error('VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY');
  return {
    keys,
    subject,
    allowPrivateAddress: flag(env, 'WEB_PUSH_ALLOW_PRIVATE', env.NODE_ENV === 'development'),
  };
}

function smtpUrlOf(raw: string): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('SMTP_URL must be a URL such as smtp://user:pass@host:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}"`);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const mediaDir = path.resolve(env.MEDIA_DIR ?? path.join(dataDir, 'media'));
  const publicUrl = env.PUBLIC_URL ?? '';
  const mediaBaseUrl = (env.MEDIA_BASE_URL ?? '/media').replace(/\/$/, '');
  const host = env.HOST ?? '127.0.0.1';
  const port = int(env, 'PORT', 3000);
  const publicOrigin = originOf(publicUrl);
  const instanceName = env.INSTANCE_NAME ?? 'Posts';
  const databaseUrl = env.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'posts.db')}`;
  // SQLite tells this process of every commit made by another (`cache/outsideWrites.ts`), and so
  // does PostgreSQL's LISTEN (`db/postgresWrites.ts`); instances on the bus hear each other's
  // changes through numbered messages, and start over when one may be missing (`instance/busSequence.ts`).
  // So the caches rely on those signals, the same times alone or several: a time only bounds what
  // no signal carries (docs/architecture.md, "A gap-free bus").
  const cacheMs = 60_000;
  return {
    host,
    port,
    dev: env.NODE_ENV === 'development',
    dataDir,
    databaseUrl,
    mediaDir,
    mediaBaseUrl,
    s3: s3Of(env, mediaBaseUrl),
    redisUrl: env.REDIS_URL || null,
    redisCommandTimeoutMs: Math.max(1, int(env, 'REDIS_COMMAND_TIMEOUT_MS', 1_000)),
    jwtSecret: loadSecret(env, dataDir),
    publicOrigin,
    secureCookies: env.COOKIE_SECURE ? env.COOKIE_SECURE === 'true' : publicUrl.startsWith('https://'),
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL ?? 'info',
    contactEmail: env.CONTACT_EMAIL ?? 'admin@example.com',
    instanceName,
    instanceId: env.INSTANCE_ID || `${hostname()}:${process.pid}`,
    rateLimits: {
      authPerIpPerMinute: int(env, 'RATE_LIMIT_AUTH_PER_IP', 20),
      authPerAccountPerMinute: int(env, 'RATE_LIMIT_AUTH_PER_ACCOUNT', 10),
      uploadsPerUserPerMinute: int(env, 'RATE_LIMIT_UPLOADS_PER_USER', 30),
      writesPerUserPerMinute: int(env, 'RATE_LIMIT_WRITES_PER_USER', 120),
      mailsPerAddressPerHour: int(env, 'RATE_LIMIT_MAILS_PER_ADDRESS', 5),
      twoFactorPerAccountPerMinute: int(env, 'RATE_LIMIT_2FA_PER_ACCOUNT', 5),
      exportsPerUserPerHour: int(env, 'RATE_LIMIT_EXPORTS_PER_USER', 3),
      reportsPerUserPerHour: int(env, 'RATE_LIMIT_REPORTS_PER_USER', 30),
      mentionsPerUserPerMinute: int(env, 'RATE_LIMIT_MENTIONS_PER_USER', 30),
      suggestionsPerUserPerMinute: int(env, 'RATE_LIMIT_SUGGESTIONS_PER_USER', 120),
      inboxPerDomainPerMinute: int(env, 'RATE_LIMIT_INBOX_PER_DOMAIN', 3000),
    },
    refreshReuseGraceMs: int(env, 'REFRESH_REUSE_GRACE_MS', 10_000),
    sessionCacheMs: int(env, 'SESSION_CACHE_MS', cacheMs),
    postCacheMs: int(env, 'POST_CACHE_MS', cacheMs),
    feedIndexMaxPosts: int(env, 'FEED_INDEX_MAX_POSTS', 5_000_000),
    homeFeedSyncMs: int(env, 'HOME_FEED_SYNC_MS', cacheMs),
    trendsRefreshMs: int(env, 'TRENDS_REFRESH_MS', 300_000),
    busHeartbeatMs: Math.max(1, int(env, 'BUS_HEARTBEAT_MS', 1_000)),
    outsideWritesCheckMs: int(env, 'OUTSIDE_WRITES_CHECK_MS', 1),
    maxPostImages: maxPostImagesOf(env),
    instagramImport: {
      dir: path.resolve(env.INSTAGRAM_IMPORT_DIR ?? path.join(dataDir, 'imports')),
      maxBytes: int(env, 'INSTAGRAM_IMPORT_MAX_BYTES', 2 * 1024 ** 3),
    },
    unusedMediaGraceHours: int(env, 'UNUSED_MEDIA_GRACE_HOURS', 24),
    sseHeartbeatMs: Math.max(1, int(env, 'SSE_HEARTBEAT_MS', 25_000)),
    sseStreamsMax: env.SSE_STREAMS_MAX ? int(env, 'SSE_STREAMS_MAX', 0) : null,
    sseStreamsPerIp: int(env, 'SSE_STREAMS_PER_IP', 64),
    maxEventLoopDelayMs: int(env, 'MAX_EVENT_LOOP_DELAY_MS', 1_000),
    requestTimeoutMs: Math.max(1, int(env, 'REQUEST_TIMEOUT_MS', 120_000)),
    smtpUrl: smtpUrlOf(env.SMTP_URL ?? ''),
    mailFrom: env.MAIL_FROM || `${instanceName} <no-reply@${new URL(publicOrigin ?? 'http://localhost').hostname}>`,
    siteUrl: publicOrigin ?? ownSiteUrl(host, port),
    metricsPort: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0) : null,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    metricsToken: metricsTokenOf(env.METRICS_TOKEN ?? ''),
    federation: federationOf(env, publicOrigin),
    webPush: webPushOf(env, env.CONTACT_EMAIL ?? 'admin@example.com'),
  };
}
