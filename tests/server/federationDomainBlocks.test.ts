/**
 * Domain blocks (issue 32, item 6): the admin API (admins only, checked input, every change in the
 * admin log), the severity of a server (its subdomains and ports), and what a suspended domain
 * meets over real HTTP: its signed activities refused at the inbox (403) before anything is kept,
 * and no deliveries to it; unblocked, both work again.
 */
import { createPost, remoteUserRow } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

let t: TestApp;
let local: string;
let remote: RemoteServer;
let admin: SignedInUser;
let ann: SignedInUser;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe']);
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  admin = await signIn(t.app);
  await makeAdmin(t, admin);
  ann = await signIn(t.app, { username: 'ann' });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const block = (user: SignedInUser | null, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/admin/domains', headers: user?.headers, payload: payload as object });
const unblock = (user: SignedInUser | null, domain: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/admin/domains/${encodeURIComponent(domain)}`, headers: user?.headers });
const list = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/admin/domains', headers: admin.headers })).json() as {
    domain: string;
    severity: string;
  }[];
const log = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/admin/log', headers: admin.headers })).json() as {
    action: string;
    targetType: string;
    target: string;
    note: string;
  }[];

describe('the domain blocks API', () => {
  it('is for admins only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/domains' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/domains', headers: ann.headers })).statusCode).toBe(
      403,
    );
    expect((await block(ann, { domain: 'spam.example', severity: 'suspend' })).statusCode).toBe(403);
    expect((await unblock(ann, 'spam.example')).statusCode).toBe(403);
    expect(await list()).toEqual([]);
  });

  it.each([
    [{ domain: 'https://spam.example/', severity: 'suspend' }, 'InvalidDomain'],
    [{ domain: 'spam.example/path', severity: 'suspend' }, 'InvalidDomain'],
    [{ domain: 'user@spam.example', severity: 'suspend' }, 'InvalidDomain'],
    [{ domain: 'spam_.example', severity: 'suspend' }, 'InvalidDomain'],
    [{ domain: '-spam.example', severity: 'suspend' }, 'InvalidDomain'],
    [{ domain: 'spam.example:99999', severity: 'suspend' }, 'InvalidDomain'],
    [{ domain: '', severity: 'suspend' }, 'InvalidDomain'],
    [{ domain: 42, severity: 'suspend' }, 'InvalidDomain'],
    [{ severity: 'suspend' }, 'InvalidDomain'],
    [{ domain: 'spam.example', severity: 'ban' }, 'InvalidSeverity'],
    [{ domain: 'spam.example' }, 'InvalidSeverity'],
    [{ domain: 'spam.example', severity: 'silence', note: 7 }, 'InvalidNote'],
  ])('refuses %j (400 %s) and keeps nothing', async (payload, code) => {
    const res = await block(admin, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code });
    expect(await list()).toEqual([]);
  });

  it('blocks (lower-cased), changes the severity, unblocks, and logs each change', async () => {
    const created = await block(admin, { domain: '  Spam.EXAMPLE ', severity: 'silence', note: 'ads' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ domain: 'spam.example', severity: 'silence' });
    // The same again changes nothing and is not logged twice.
    expect((await block(admin, { domain: 'spam.example', severity: 'silence' })).statusCode).toBe(200);
    const changed = await block(admin, { domain: 'spam.example', severity: 'suspend' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ domain: 'spam.example', severity: 'suspend' });
    expect((await block(admin, { domain: 'other.example:8443', severity: 'silence' })).statusCode).toBe(201);
    expect(await list()).toEqual([
      expect.objectContaining({ domain: 'other.example:8443', severity: 'silence' }),
      expect.objectContaining({ domain: 'spam.example', severity: 'suspend' }),
    ]);

    expect((await unblock(admin, 'SPAM.example')).statusCode).toBe(204);
    expect((await unblock(admin, 'spam.example')).statusCode).toBe(404);
    expect((await unblock(admin, 'not a domain')).statusCode).toBe(400);
    expect((await unblock(admin, 'other.example:8443')).statusCode).toBe(204);
    expect(await list()).toEqual([]);

    const entries = (await log()).filter((e) => e.targetType === 'domain');
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ['unblockDomain', 'other.example:8443'],
      ['unblockDomain', 'spam.example'],
      ['silenceDomain', 'other.example:8443'],
      ['suspendDomain', 'spam.example'],
      ['silenceDomain', 'spam.example'],
    ]);
    expect(entries.at(-1)?.note).toBe('ads');
  });

  it('matches subdomains and ports; the strictest block wins', async () => {
    const { severityOf } = t.app.ctx.domainBlocks;
    await block(admin, { domain: 'bad.example', severity: 'silence' });
    await block(admin, { domain: 'worse.bad.example', severity: 'suspend' });
    await block(admin, { domain: '10.1.2.3:4000', severity: 'suspend' });
    expect(await severityOf('bad.example')).toBe('silence');
    expect(await severityOf('media.bad.example:443')).toBe('silence');
    expect(await severityOf('a.worse.bad.example')).toBe('suspend');
    expect(await severityOf('notbad.example')).toBeNull();
    expect(await severityOf('10.1.2.3:4000')).toBe('suspend');
    expect(await severityOf('10.1.2.3:4001')).toBeNull();
    for (const domain of ['bad.example', 'worse.bad.example', '10.1.2.3:4000']) await unblock(admin, domain);
    expect(await severityOf('a.worse.bad.example')).toBeNull();
  });
});

describe('a blocked server under another spelling of its host (issue 68, item 35)', () => {
  it('is the same server: trailing dot, case, IPv4-mapped IPv6, hexadecimal IPv4, punycode', async () => {
    const { severityOf } = t.app.ctx.domainBlocks;
    await block(admin, { domain: 'bad.example', severity: 'suspend' });
    await block(admin, { domain: '10.1.2.3', severity: 'suspend' });
    // Blocked as the admin typed it, in a spelling of its own: kept in the one form.
    await block(admin, { domain: 'Bücher.Example.', severity: 'suspend' });
    expect((await list()).map((b) => b.domain).sort()).toEqual(['10.1.2.3', 'bad.example', 'xn--bcher-kva.example']);
    for (const host of [
      'bad.example.',
      'BAD.EXAMPLE.:8443',
      'media.bad.example.',
      '[::ffff:10.1.2.3]',
      '[0:0:0:0:0:ffff:a01:203]:8080',
      '0x0a.1.2.3',
      'bücher.example',
      'xn--bcher-kva.example.',
    ])
      expect([host, await severityOf(host)]).toEqual([host, 'suspend']);
    expect(await severityOf('[::ffff:10.1.2.4]')).toBeNull();
    for (const domain of ['bad.example', '10.1.2.3', 'xn--bcher-kva.example']) await unblock(admin, domain);
  });

  it('is refused at the inbox when the key or the actor is written another way', async () => {
    expect((await block(admin, { domain: remote.host, severity: 'suspend' })).statusCode).toBe(201);
    const [, port] = remote.host.split(':');
    for (const spelling of [`[::ffff:127.0.0.1]:${port}`, `127.0.0.1.:${port}`, `0x7f.0.0.1:${port}`]) {
      const actor = `http://${spelling}/actors/zoe`;
      const response = await fetch(`${local}/inbox`, {
        method: 'POST',
        headers: {
          'content-type': 'application/activity+json',
          signature: `keyId="${actor}#main-key",headers="(request-target) host date digest",signature="AAAA"`,
        },
        body: JSON.stringify({ id: `${actor}#like`, type: 'Like', actor, object: `${local}/post/1` }),
      });
      expect([spelling, response.status]).toEqual([spelling, 403]);
    }
    expect((await unblock(admin, remote.host)).statusCode).toBe(204);
  });
});

describe("a suspended domain's people", () => {
  /** A person elsewhere as federation keeps them; `suspended`: an admin suspended them one by one. */
  async function person(domain: string, suspended = false): Promise<string> {
    const row = remoteUserRow(domain, { suspended_at: suspended ? new Date().toISOString() : null });
    await t.db.kysely.insertInto('users').values(row).execute();
    return row.id;
  }
  const suspendedNow = async (ids: string[]) =>
    (await t.db.kysely.selectFrom('users').select(['id', 'suspended_at']).where('id', 'in', ids).execute())
      .map((row) => [ids.indexOf(row.id), row.suspended_at !== null])
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, on]) => on);

  it('are suspended with it (its subdomains and ports too), and given back when it is lifted or only silenced', async () => {
    const people = [
      await person('lift.example'),
      await person('a.lift.example:8443'),
      await person('lift.example', true),
      await person('other.example'),
      await person('notlift.example'),
    ];
    expect((await block(admin, { domain: 'lift.example', severity: 'suspend' })).statusCode).toBe(201);
    expect(await suspendedNow(people)).toEqual([true, true, true, false, false]);
    // A stricter block of a subdomain keeps its people suspended when the parent's is softened.
    expect((await block(admin, { domain: 'a.lift.example', severity: 'suspend' })).statusCode).toBe(201);
    expect((await block(admin, { domain: 'lift.example', severity: 'silence' })).statusCode).toBe(200);
    expect(await suspendedNow(people)).toEqual([false, true, true, false, false]);
    expect((await unblock(admin, 'a.lift.example')).statusCode).toBe(204);
    expect((await unblock(admin, 'lift.example')).statusCode).toBe(204);
    // The one an admin suspended by hand stays suspended.
    expect(await suspendedNow(people)).toEqual([false, false, true, false, false]);
  });
});

describe('a suspended domain over HTTP', () => {
  const annUri = () => `${local}/users/${ann.id}`;
  const follow = (n: number) => ({
    id: `${remote.origin}/follows/${n}`,
    type: 'Follow',
    actor: remote.actorUri('zoe'),
    object: annUri(),
  });
  const followers = () => t.db.kysely.selectFrom('federation_followers').selectAll().execute();

  it("refuses its signed activities at the inbox (403) and delivers nothing to it; unblocked, it's heard again", async () => {
    expect((await block(admin, { domain: remote.host, severity: 'suspend' })).statusCode).toBe(201);
    const keyFetches = () => remote.requests.filter((r) => r.method === 'GET').length;
    const before = keyFetches();
    const refused = await remote.signedPost('zoe', `${annUri()}/inbox`, follow(1));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'DomainSuspended' });
    // Refused before the signature was checked: its key was never fetched, nothing was kept.
    expect(keyFetches()).toBe(before);
    expect((await remote.signedPost('zoe', `${local}/inbox`, follow(2))).status).toBe(403);
    expect(await followers()).toEqual([]);

    // Silenced, its activities are taken: zoe follows ann (and is sent the Accept).
    expect((await block(admin, { domain: remote.host, severity: 'silence' })).statusCode).toBe(200);
    expect((await remote.signedPost('zoe', `${annUri()}/inbox`, follow(3))).status).toBe(202);
    await until(async () => (await followers()).length === 1);
    await until(() => remote.delivered().some((a) => a.type === 'Accept'));
    // zoe, first kept under the silence, is silenced with her domain (hidden from non-followers).
    const zoe = () =>
      t.db.kysely.selectFrom('users').select('domain_silenced').where('domain', '=', remote.host).executeTakeFirst();
    expect(Number((await zoe())?.domain_silenced)).toBe(1);

    // Suspended again: ann's new post is not delivered to zoe.
    await block(admin, { domain: remote.host, severity: 'suspend' });
    const refusedBefore = t.app.ctx.federation!.failures.refused;
    const hidden = await createPost(t.app, ann, { message: 'not for them' });
    await until(() => t.app.ctx.federation!.failures.refused > refusedBefore);
    const creates = () => remote.delivered().filter((a) => a.type === 'Create');
    expect(creates()).toEqual([]);

    // Unblocked: the next post reaches zoe; the one made while suspended never did.
    expect((await unblock(admin, remote.host)).statusCode).toBe(204);
    const shown = await createPost(t.app, ann, { message: 'for everyone' });
    await until(() => creates().length > 0);
    const objects = creates().map((a) => (a.object as { id: string }).id);
    expect(objects).toContain(`${local}/post/${shown._id}`);
    expect(objects).not.toContain(`${local}/post/${hidden._id}`);
    expect(Number((await zoe())?.domain_silenced)).toBe(0);
  });
});
