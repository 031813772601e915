/** DNS rebinding: only known Host names are answered (421 otherwise), and Origin is compared with PUBLIC_URL. */
import { networkInterfaces } from 'node:os';
import { loadConfig } from '../../server/config';
import { type TestApp, createTestApp, signIn } from './helpers';

const instance = (app: TestApp, host: string) =>
  app.app.inject({ method: 'GET', url: '/api/instance', headers: { host } });

async function withApp(env: Record<string, string>, run: (app: TestApp) => Promise<void>): Promise<void> {
  const app = await createTestApp(env);
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

describe('Host', () => {
  it('without PUBLIC_URL: loopback names and the listening address only', async () => {
    await withApp({ HOST: '192.0.2.10' }, async (t) => {
      // Twice: the allowed names are remembered, and only they.
      for (const round of [1, 2]) {
        for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'app.localhost', '192.0.2.10:3000'])
          expect((await instance(t, host)).statusCode, `${host} (${round})`).toBe(200);
        for (const host of ['rebind.attacker.example', 'rebind.attacker.example:3000', '192.0.2.11:3000']) {
          const res = await instance(t, host);
          expect(res.statusCode, `${host} (${round})`).toBe(421);
          expect(res.json().code).toBe('MisdirectedRequest');
        }
      }
    });
  });

  it('listening on every interface: the machine own addresses, still no other name', async () => {
    await withApp({ HOST: '0.0.0.0' }, async (t) => {
      const own = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal);
      if (own) expect((await instance(t, `${own.address}:3000`)).statusCode).toBe(200);
      expect((await instance(t, 'rebind.attacker.example')).statusCode).toBe(421);
    });
  });

  it('with PUBLIC_URL: its host only (and loopback), and Origin must be its origin, scheme included', async () => {
    await withApp({ PUBLIC_URL: 'https://posts.example' }, async (t) => {
      for (const round of [1, 2]) {
        for (const host of ['posts.example', 'posts.example:443', 'localhost:3000'])
          expect((await instance(t, host)).statusCode, `${host} (${round})`).toBe(200);
        for (const host of ['other.example', 'posts.example:8443', 'posts.example.attacker.example']) {
          const res = await instance(t, host);
          expect(res.statusCode, `${host} (${round})`).toBe(421);
          expect(res.json()).toEqual({
            message: 'This server answers for posts.example only',
            code: 'MisdirectedRequest',
          });
        }
      }
      const user = await signIn(t.app);
      const logout = (origin: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: { ...user.headers, host: 'posts.example', origin },
        });
      expect((await logout('http://posts.example')).statusCode).toBe(403);
      expect((await logout('https://posts.example:8443')).statusCode).toBe(403);
      expect((await logout('https://posts.example')).statusCode).toBe(200);
    });
  });

  it('refuses a PUBLIC_URL that is not an http(s) URL at start', async () => {
    const env = { JWT_SECRET: 'test-secret-'.padEnd(48, 'x') };
    expect(() => loadConfig({ ...env, PUBLIC_URL: 'posts.example' })).toThrow(/PUBLIC_URL must be a URL/);
    expect(() => loadConfig({ ...env, PUBLIC_URL: 'ftp://posts.example' })).toThrow(/https:\/\/ or http:\/\//);
    expect(loadConfig({ ...env, PUBLIC_URL: 'https://posts.example/' }).publicOrigin).toBe('https://posts.example');
  });
});
