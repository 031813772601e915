/** Accounts: the token's own (`verify_credentials`), anyone's by id or name, and their statuses. */
import { audienceOfVisibility } from '../../lib/audience';
import type { FastifyPluginAsync } from 'fastify';
import type { Profile } from '../../lib/types';
import { InvalidError } from '../domain/errors';
import type { AuthUser } from '../domain/types';
import { needs } from './http';
import { toAccount, toCredentialAccount } from './mappers';
import { statusesOfPosts } from './statuses';
import { type ClientServices, type ListQuery, accountsFor, readListPage, sendList, siteOf, tokenUser } from './support';

type IdRoute = { Params: { id: string } };

/**
 * Mastodon's `fields_attributes`, all the links (those not sent are removed): a list or an object
 * by index in JSON, `fields_attributes[0][name]` keys in a form (masto's). `{}` when not sent.
 */
export function fieldsAttributesOf(body: Record<string, unknown>): { fields?: unknown } {
  const sent = body.fields_attributes;
  if (sent !== undefined) {
    if (Array.isArray(sent)) return { fields: sent };
    if (typeof sent === 'object' && sent !== null)
      return {
        fields: Object.keys(sent)
          .sort((a, b) => Number(a) - Number(b))
          .map((k) => (sent as never)[k]),
      };
    return { fields: sent };
  }
  const byIndex = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(body)) {
    const found = /^fields_attributes\[(\d{1,2})\]\[(name|value)\]$/.exec(key);
    if (!found) continue;
    const index = Number(found[1]);
    byIndex.set(index, { name: '', value: '', ...byIndex.get(index), [found[2]]: value });
  }
  if (byIndex.size === 0) return {};
  return { fields: [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, field]) => field) };
}

/** Mastodon's `locked` and `discoverable`: a boolean in JSON, `true`/`false` (or `1`/`0`) in a form; anything else is left to refuse. */
function booleanOf(value: unknown): unknown {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}

/** `source[privacy]` (JSON or a form) as the default audience; an unknown one is left for the service to refuse. */
const privacyOf = (privacy: unknown) =>
  privacy === undefined ? {} : { defaultAudience: audienceOfVisibility(privacy) ?? privacy };

export const accountEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, users, posts } = services;

  app.get('/api/v1/accounts/verify_credentials', { preValidation: needs('read:accounts') }, async (request) => {
    const viewer = tokenUser(request);
    const waiting = await users.followRequests.count(viewer);
    return toCredentialAccount(siteOf(config, request), await users.account(viewer), waiting);
  });

  // Multipart (masto, most apps): `note`, `display_name`, `fields_attributes`, and `avatar`/`header`
  // as files, stored as the site's own uploads.
  app.patch<{
    Body: {
      note?: unknown;
      display_name?: unknown;
      avatar?: unknown;
      header?: unknown;
      locked?: unknown;
      discoverable?: unknown;
      source?: { privacy?: unknown };
      'source[privacy]'?: unknown;
    };
  }>(
    '/api/v1/accounts/update_credentials',
    { preValidation: [needs('write:accounts'), services.limits.uploads] },
    async (request) => {
      const viewer = tokenUser(request);
      const body = request.body ?? {};
      const imageOf = async (file: unknown, preset: 'avatar' | 'banner') => {
        if (file === undefined) return undefined;
        if (!Buffer.isBuffer(file)) throw new InvalidError(`Send the ${preset} as a file`);
        return (await services.media.upload(viewer.id, preset, file)).secure_url;
      };
      const [avatar, banner] = [await imageOf(body.avatar, 'avatar'), await imageOf(body.header, 'banner')];
      const user = await users.updateProfile(viewer, {
        ...(body.note !== undefined ? { description: body.note } : {}),
        ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
        ...fieldsAttributesOf(body),
        ...(avatar ? { avatar } : {}),
        ...(banner ? { banner } : {}),
        ...(body.locked !== undefined ? { approveFollowers: booleanOf(body.locked) } : {}),
        ...(body.discoverable !== undefined ? { discoverable: booleanOf(body.discoverable) } : {}),
        ...privacyOf(body['source[privacy]'] ?? body.source?.privacy),
      });
      return toCredentialAccount(siteOf(config, request), user, await users.followRequests.count(viewer));
    },
  );

  app.get<{ Querystring: { acct?: string } }>(
    '/api/v1/accounts/lookup',
    { preValidation: needs('read:accounts') },
    async (request) => {
      // `name` or `name@this.host` is someone here; `name@host` someone elsewhere already kept here.
      const site = siteOf(config, request);
      const acct = (request.query.acct ?? '').replace(/^@/, '');
      const at = acct.lastIndexOf('@');
      const name = at > 0 && acct.slice(at + 1).toLowerCase() === new URL(site).host ? acct.slice(0, at) : acct;
      return accountWithMove(tokenUser(request), site, await users.profile(tokenUser(request), name));
    },
  );

  /**
   * A person as an Account, with `moved` (the Account they moved to, issue 76) when they moved;
   * left out when that account is hidden from the viewer.
   */
  async function accountWithMove(viewer: AuthUser, site: ReturnType<typeof siteOf>, profile: Profile) {
    const account = toAccount(site, profile);
    if (!profile.movedTo) return account;
    const moved = await users.profileById(viewer, profile.movedTo._id).catch(() => null);
    return moved ? { ...account, moved: toAccount(site, moved) } : account;
  }

  app.get<IdRoute>('/api/v1/accounts/:id', { preValidation: needs('read:accounts') }, async (request) => {
    const viewer = tokenUser(request);
    const site = siteOf(config, request);
    return accountWithMove(viewer, site, await users.profileById(viewer, request.params.id));
  });

  app.get<IdRoute & { Querystring: ListQuery }>(
    '/api/v1/accounts/:id/statuses',
    { preValidation: needs('read:statuses') },
    async (request, reply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const profile = await users.profileById(viewer, request.params.id);
      const list = readListPage(request.query);
      const rows = await posts.byUser(viewer, profile.username, list.page);
      const shown = sendList(request, reply, site, list, rows, (p) => p._id);
      return statusesOfPosts(services, viewer, site, shown);
    },
  );
};

/** Following, blocking and muting, and the lists of followers and followed. */
export const relationshipEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, users, safety, limits } = services;

  const relationshipOf = async (viewer: AuthUser, profile: Profile) => ({
    id: profile._id,
    following: profile.followedByMe,
    showing_reblogs: profile.followedByMe,
    notifying: false,
    languages: null,
    followed_by: await users.followsViewer(viewer, profile._id),
    blocking: profile.blockedByMe,
    blocked_by: false,
    muting: profile.mutedByMe,
    muting_notifications: profile.mutedByMe,
    // A follow request of the viewer's waits for their answer; one of theirs for the viewer's (issue 70).
    requested: profile.followRequestedByMe,
    requested_by: await users.followRequests.isRequested(profile._id, viewer.id),
    domain_blocking: false,
    endorsed: false,
    note: '',
  });

  const actions: Record<string, { scope: string; act: (viewer: AuthUser, username: string) => Promise<unknown> }> = {
    follow: { scope: 'write:follows', act: users.follow },
    unfollow: { scope: 'write:follows', act: users.unfollow },
    block: { scope: 'write:blocks', act: safety.block },
    unblock: { scope: 'write:blocks', act: safety.unblock },
    mute: { scope: 'write:mutes', act: safety.mute },
    unmute: { scope: 'write:mutes', act: safety.unmute },
  };
  for (const [name, { scope, act }] of Object.entries(actions))
    app.post<IdRoute>(
      `/api/v1/accounts/:id/${name}`,
      { preValidation: [needs(scope), limits.writes] },
      async (request) => {
        const viewer = tokenUser(request);
        const target = await users.profileById(viewer, request.params.id);
        await act(viewer, target.username);
        return relationshipOf(viewer, await users.profileById(viewer, target._id));
      },
    );

  // Issue 70: the viewer removes a follower, without blocking them.
  app.post<IdRoute>(
    '/api/v1/accounts/:id/remove_from_followers',
    { preValidation: [needs('write:follows'), limits.writes] },
    async (request) => {
      const viewer = tokenUser(request);
      const target = await users.profileById(viewer, request.params.id);
      await users.removeFollower(viewer, target._id);
      return relationshipOf(viewer, await users.profileById(viewer, target._id));
    },
  );

  // Issue 70: the people waiting for the viewer's answer, and the answers.
  app.get<{ Querystring: ListQuery }>(
    '/api/v1/follow_requests',
    { preValidation: needs('read:follows') },
    async (request, reply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await users.followRequests.list(viewer, list.page);
      const shown = sendList(request, reply, site, list, rows, (r) => r.requestId);
      const accountOf = accountsFor(users, viewer, site);
      return Promise.all(shown.map((r) => accountOf(r.username)));
    },
  );
  for (const [name, answer] of [
    ['authorize', 'approve'],
    ['reject', 'reject'],
  ] as const)
    app.post<IdRoute>(
      `/api/v1/follow_requests/:id/${name}`,
      { preValidation: [needs('write:follows'), limits.writes] },
      async (request) => {
        const viewer = tokenUser(request);
        await users.followRequests[answer](viewer, request.params.id);
        return relationshipOf(viewer, await users.profileById(viewer, request.params.id));
      },
    );

  app.get<{ Querystring: { id?: string | string[] } }>(
    '/api/v1/accounts/relationships',
    { preValidation: needs('read:follows') },
    async (request) => {
      const viewer = tokenUser(request);
      const raw = request.query.id ?? (request.query as Record<string, string | string[]>)['id[]'] ?? [];
      const ids = (Array.isArray(raw) ? raw : [raw]).slice(0, 40);
      const found = await Promise.all(ids.map((id) => users.profileById(viewer, id).catch(() => null)));
      return Promise.all(found.filter((p) => p !== null).map((p) => relationshipOf(viewer, p)));
    },
  );

  for (const side of ['followers', 'following'] as const)
    app.get<IdRoute & { Querystring: ListQuery }>(
      `/api/v1/accounts/:id/${side}`,
      { preValidation: needs('read:accounts') },
      async (request, reply) => {
        const viewer = tokenUser(request);
        const site = siteOf(config, request);
        const profile = await users.profileById(viewer, request.params.id);
        const list = readListPage(request.query);
        const rows = await users.follows(viewer, profile.username, side, list.page);
        const shown = sendList(request, reply, site, list, rows, (r) => r.followId);
        const accountOf = accountsFor(users, viewer, site);
        return Promise.all(shown.map((r) => accountOf(r.username)));
      },
    );
};
