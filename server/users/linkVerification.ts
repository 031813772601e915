/**
 * Profile link verification, as Mastodon's (issue 68, item 32): once a person saves a link to a web
 * page, that page is fetched in the background through the guarded outgoing fetch (the address check
 * on every hop, DNS pinned, a timeout and a size cap: `outgoing/outgoingGuard.ts`), and the link is
 * marked verified when the page links back to the person's profile with `rel="me"`. Only https pages
 * (http too where private addresses are allowed: tests, local trials). A failure leaves the link
 * unverified; saving it again tries again.
 */
import { linkOf } from '../../lib/profileFields';
import { nowIso } from '../domain/ids';
import type { PublishEvent } from '../events/domainEvents';
import type { UserRow } from '../db/schema';
import { fieldsOf, withVerified } from './profileFields';
import { comparableUrl, relMeLinks } from './relMeLinks';

/** The largest page read for its links (Mastodon reads a megabyte too). */
export const VERIFY_MAX_BYTES = 1024 * 1024;
/** Pages being fetched at once in this process; a save beyond it is not verified (saved again: tried). */
const IN_FLIGHT_MAX = 8;

export interface LinkVerificationDeps {
  findUser(id: string): Promise<UserRow | undefined>;
  /** Writes `after` unless the column changed since `before` was read (the person saved again): true when written. */
  replaceFields(id: string, before: string | null, after: string | null): Promise<boolean>;
  /** The page, through the guarded fetch (`guardedFetch` with `accept: text/html`). */
  fetchPage(url: string): Promise<{ status: number; body: Uint8Array }>;
  /** The addresses a page may link back to for `user`: their profile page here, their actor. */
  profileUrlsOf(user: Pick<UserRow, 'id' | 'username'>): string[];
  /** http pages too (private addresses allowed: tests, local trials). */
  allowHttp: boolean;
  publish: PublishEvent;
  onError(error: unknown, what: string): void;
}

export function linkVerification(deps: LinkVerificationDeps) {
  let inFlight = 0;
  const running = new Set<string>();
  /** People who saved again while theirs ran: checked once more when it ends. */
  const again = new Set<string>();

  /** Whether the page at `url` links back to one of `profiles` with `rel="me"`. */
  async function linksBack(url: URL, profiles: Set<string>): Promise<boolean> {
    const { status, body } = await deps.fetchPage(url.href);
    if (status < 200 || status >= 300) return false;
    const html = new TextDecoder('utf-8', { fatal: false }).decode(body);
    return relMeLinks(html).some((href) => {
      const back = comparableUrl(href, url.href);
      return back !== null && profiles.has(back);
    });
  }

  /** Checks the user's links not yet verified, one after the other; marks those whose page links back. */
  async function verify(userId: string): Promise<void> {
    const user = await deps.findUser(userId);
    if (!user || user.domain !== null || user.suspended_at !== null) return;
    const profiles = new Set(deps.profileUrlsOf(user).flatMap((u) => comparableUrl(u) ?? []));
    let verified = false;
    for (const field of fieldsOf(user.profile_fields)) {
      const url = linkOf(field.value);
      if (field.verifiedAt !== null || !url) continue;
      if (url.protocol !== 'https:' && !deps.allowHttp) continue;
      try {
        if (!(await linksBack(url, profiles))) continue;
      } catch {
        continue; // refused, unreachable, too large, too slow: not verified
      }
      const now = await deps.findUser(userId);
      if (!now) return;
      const after = withVerified(now.profile_fields, field.value, nowIso());
      if (after !== now.profile_fields && (await deps.replaceFields(userId, now.profile_fields, after)))
        verified = true;
    }
    if (verified) deps.publish({ type: 'UserProfileChanged', userId, avatarChanged: false });
  }

  /** `verify` in the background: once at a time per person, a few people at a time. */
  function start(userId: string): void {
    if (running.has(userId)) return void again.add(userId);
    if (inFlight >= IN_FLIGHT_MAX) return;
    running.add(userId);
    inFlight++;
    verify(userId)
      .catch((error: unknown) => deps.onError(error, 'verifying profile links failed'))
      .finally(() => {
        running.delete(userId);
        inFlight--;
        if (again.delete(userId)) start(userId);
      });
  }

  return { verify, start };
}

export type LinkVerification = ReturnType<typeof linkVerification>;
