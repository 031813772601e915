/**
 * A Posts instance that federates over loopback, for the tests with several servers: its own
 * database, its own port as `PUBLIC_URL`, private addresses allowed (`DEBUG_FED=1` prints its
 * warnings). The two-instance tests (federationTwoInstances, federationAccountLists,
 * federationIndependentPeer, federationMove…) start theirs here.
 */
import { freePort } from './remoteServer';
import { type TestApp, createTestApp } from './helpers';

export interface FederatedInstance {
  t: TestApp;
  /** `127.0.0.1:{port}` */
  host: string;
}

export async function federatedInstance(): Promise<FederatedInstance> {
  const port = await freePort();
  const t = await createTestApp(
    {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      FEDERATION_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: process.env.DEBUG_FED ? 'warn' : 'silent',
    },
    { logStream: process.stderr },
  );
  await t.app.listen({ host: '127.0.0.1', port });
  return { t, host: `127.0.0.1:${port}` };
}
