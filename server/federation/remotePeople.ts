/**
 * People from elsewhere (issue 32): an actor looked up by handle (`@name@host`) or address is kept
 * as a `users` row with a `domain` (`remoteRepository.ts`), refreshed when older than a day or when
 * they send an `Update`, with their avatar and banner fetched into this instance's media (again when
 * their address changes). Their name here is `name@host`.
 */
import type { Context } from '@fedify/fedify';
import { type Actor, Image, isActor } from '@fedify/vocab';
import { newId, nowIso } from '../domain/ids';
import type { PublishEvent } from '../events/domainEvents';
import type { MediaService } from '../media/service';
import { remoteProfileFieldsOf } from './remoteProfileFields';
import type { RemotePersonFields, RemotePersonRow, RemoteRepository } from './remoteRepository';
import { guardedFetch } from '../outgoing/outgoingGuard';
import { canonicalHost } from './domainName';
import { storeRemoteImage } from './remoteImages';
import { textOfHtml, webUrlOf } from './remoteText';
import { handleOf } from '../../lib/handles';
import { REMOTE_USERNAME_MAX } from '../../lib/limits';
import { remoteDisplayNameOf } from '../../lib/profileFields';
import { isRemotePersonName } from '../../lib/textEntities';
import type { DomainSeverity } from '../../lib/types';

const REFRESH_MS = 86_400_000;

export interface RemotePeopleDeps {
  repo: RemoteRepository;
  media: () => Pick<MediaService, 'upload'>;
  /** Plain-HTTP WebFinger for hosts in tests and local trials (`FEDERATION_ALLOW_PRIVATE`). */
  allowPrivateAddress: boolean;
  onError: (error: unknown, what: string) => void;
  /** The domain blocks' severity of a host: a person first kept under one is silenced or suspended. */
  severityOf: (host: string) => Promise<DomainSeverity | null>;
  /** Tells the rest of the app (the caches) that a kept person's name or pictures changed. */
  publish: PublishEvent;
}

/**
 * What is kept of an actor, or null when it is not someone this instance can keep: no address or
 * inbox, or a name that is not a name (control characters, direction marks, HTML, `@`, spaces): such
 * a person could act but never be opened, blocked, muted or suspended by name (issue 68, item 35).
 * The name must be one a mention finds (`isRemotePersonName`) and fit the column.
 */
export function remotePersonFields(actor: Actor): RemotePersonFields | null {
  if (!actor.id || !actor.inboxId || !actor.preferredUsername) return null;
  const name = actor.preferredUsername.toString().normalize('NFC');
  if (!isRemotePersonName(name)) return null;
  const domain = canonicalHost(actor.id.host);
  const username = `${name}@${domain}`;
  if (username.length > REMOTE_USERNAME_MAX) return null;
  return {
    username,
    domain,
    actor_uri: actor.id.href,
    inbox_uri: actor.inboxId.href,
    shared_inbox_uri: actor.endpoints?.sharedInbox?.href ?? null,
    url: webUrlOf(actor.url instanceof URL ? actor.url.href : actor.url?.href?.href) ?? actor.id.href,
    description: actor.summary ? textOfHtml(actor.summary.toString()).slice(0, 500) : '',
    // Shown as text beside their posts: no controls, direction overrides or invisibles, bounded.
    display_name: remoteDisplayNameOf(actor.name?.toString(), name),
    approve_followers: actor.manuallyApprovesFollowers ? 1 : 0,
    // As Mastodon reads it: only an actor that says so is in the trends and suggestions.
    discoverable: actor.discoverable === true ? 1 : 0,
  };
}

export function remotePeople({ repo, media, allowPrivateAddress, onError, severityOf, publish }: RemotePeopleDeps) {
  /**
   * Their avatar (`icon`) and banner (`image`), each fetched through the upload pipeline when its
   * address is not the one kept: which of the two changed. A picture their actor no longer has goes
   * here too; one that cannot be fetched now leaves what is kept (the profile shows its placeholder
   * when nothing is), and is tried again at the next refresh.
   */
  async function refreshPictures(ctx: Context<void>, row: RemotePersonRow, actor: Actor) {
    const pictures = [
      { field: 'avatar', kept: row.avatar, source: row.avatar_source, get: () => actor.getIcon(ctx) },
      { field: 'banner', kept: row.banner, source: row.banner_source, get: () => actor.getImage(ctx) },
    ] as const;
    const changed = { avatar: false, banner: false };
    for (const { field, kept, source, get } of pictures) {
      try {
        const image = await get().catch(() => undefined);
        if (image === undefined) continue;
        const url = image instanceof Image ? (image.url instanceof URL ? image.url : image.url?.href) : null;
        if (!url) {
          if (kept) {
            await repo.setPicture(row.id, field, null);
            changed[field] = true;
          }
          continue;
        }
        if (kept && source === url.href) continue;
        const stored = await storeRemoteImage(media(), row.id, field, url.href, allowPrivateAddress);
        if (!stored) continue;
        await repo.setPicture(row.id, field, { url: stored.url, source: url.href });
        changed[field] = true;
      } catch (error) {
        onError(error, `fetching their ${field} failed`);
      }
    }
    return changed;
  }

  /**
   * Keeps (or refreshes) the actor; null when it is not one we can follow or answer. A change of
   * what their posts, comments and profile show is published, so the caches show it at once.
   */
  async function store(
    ctx: Context<void>,
    actor: Actor,
  ): Promise<{ row: RemotePersonRow; created: boolean; actor: Actor } | null> {
    const person = remotePersonFields(actor);
    // A local actor is never kept as a remote one.
    if (!person || ctx.parseUri(actor.id)?.type === 'actor') return null;
    const fields = { ...person, profile_fields: await remoteProfileFieldsOf(ctx, actor) };
    const now = nowIso();
    const known = await repo.personWithActorUri(fields.actor_uri);
    let created = false;
    if (known) await repo.updateRemotePerson(known.id, fields, now);
    else
      created = await repo.insertRemotePerson({
        id: newId(),
        now,
        severity: await severityOf(fields.domain),
        ...fields,
      });
    const row = await repo.personWithActorUri(fields.actor_uri);
    if (!row) return null;
    const pictures = await refreshPictures(ctx, row, actor);
    if (known) {
      if (known.username !== row.username) publish({ type: 'UserRenamed', userId: row.id });
      const nameChanged = known.display_name !== row.display_name;
      if (
        pictures.avatar ||
        pictures.banner ||
        nameChanged ||
        known.description !== row.description ||
        known.profile_fields !== row.profile_fields ||
        known.approve_followers !== row.approve_followers ||
        known.url !== row.url
      )
        publish({ type: 'UserProfileChanged', userId: row.id, avatarChanged: pictures.avatar, nameChanged });
      if (known.discoverable !== row.discoverable) publish({ type: 'TrendsChanged' });
    }
    const fetched = pictures.avatar || pictures.banner ? await repo.personWithActorUri(fields.actor_uri) : row;
    return { row: fetched ?? row, created, actor };
  }

  /** The actor's address from a handle, through WebFinger (plain HTTP too in local trials). */
  async function actorUriOfHandle(name: string, host: string): Promise<string | null> {
    const resource = `acct:${name}@${host}`;
    const schemes = allowPrivateAddress ? ['https', 'http'] : ['https'];
    for (const scheme of schemes) {
      try {
        const response = await guardedFetch(
          `${scheme}://${host}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
          { allowPrivateAddress, accept: 'application/jrd+json' },
        );
        if (response.status !== 200) continue;
        const jrd = JSON.parse(Buffer.from(response.body).toString('utf8')) as {
          links?: { rel?: string; type?: string; href?: string }[];
        };
        const self = jrd.links?.find(
          (link) => link.rel === 'self' && /activity\+json|ld\+json/.test(link.type ?? '') && link.href,
        );
        if (self?.href) return self.href;
      } catch {
        // The next scheme, or not found.
      }
    }
    return null;
  }

  /** Fetches the actor at that address and keeps them. */
  async function fetchAndStore(ctx: Context<void>, uri: string) {
    const object = await ctx.lookupObject(uri).catch(() => null);
    return isActor(object) ? store(ctx, object) : null;
  }

  return {
    store,

    /** A kept person by their actor's address: fetched and kept the first time, refreshed after a day. */
    async byActorUri(ctx: Context<void>, uri: string, actor?: Actor | null): Promise<RemotePersonRow | null> {
      const known = await repo.personWithActorUri(uri);
      if (known && Date.now() - Date.parse(known.fetched_at ?? '') < REFRESH_MS) return known;
      if (actor?.id?.href === uri) return (await store(ctx, actor))?.row ?? known ?? null;
      return (await fetchAndStore(ctx, uri))?.row ?? known ?? null;
    },

    /** A search's handle or address: the person, looked up now (and kept), or null. */
    async lookUp(ctx: Context<void>, query: string) {
      const q = query.trim();
      const handle = handleOf(q);
      const uri = handle ? await actorUriOfHandle(handle.name, handle.host) : q;
      if (!uri) return null;
      return fetchAndStore(ctx, uri);
    },
  };
}

export type RemotePeople = ReturnType<typeof remotePeople>;
