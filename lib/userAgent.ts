/**
 * "Firefox on Windows" from a User-Agent header: enough to tell one's own devices apart in
 * Settings. Order matters: Edge and Opera say Chrome too, Chrome says Safari, Android says Linux.
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Headless)?(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export interface DeviceDescription {
  browser: string | null;
  system: string | null;
}

export function describeUserAgent(userAgent: string | null): DeviceDescription {
  const ua = userAgent ?? '';
  const find = (table: [RegExp, string][]) => table.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  return { browser: find(BROWSERS), system: find(SYSTEMS) };
}

/** How the session of an app's token is labelled. */
export const APP_SESSION_PREFIX = 'App: ';

/** One line for a session: "Chrome on macOS", "Firefox", "App: Ivory", "Unknown device". */
export function deviceLabel(userAgent: string | null): string {
  // An app's token (the Mastodon client API) names its session `App: <name>` (server/oauth/service.ts).
  if (userAgent?.startsWith(APP_SESSION_PREFIX)) return userAgent;
  const { browser, system } = describeUserAgent(userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
