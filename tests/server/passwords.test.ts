import { hashPassword, needsRehash, verifyPassword } from '../../server/auth/passwords';
import { hashWithEarlierSetting } from './helpers';

describe('password hashes', () => {
  it('hashes with argon2id at 12 MiB, 3 iterations, 1 lane', async () => {
    const made = await hashPassword('password123');
    expect(made).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
    expect(await verifyPassword(made, 'password123')).toBe(true);
    expect(await verifyPassword(made, 'password124')).toBe(false);
  });

  it('still verifies hashes made with the earlier 19 MiB / 2 iterations setting', async () => {
    const earlier = await hashWithEarlierSetting('password123');
    expect(earlier).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(earlier, 'password123')).toBe(true);
    expect(await verifyPassword(earlier, 'wrong-password')).toBe(false);
    expect(needsRehash(earlier)).toBe(true);
    expect(needsRehash(await hashPassword('password123'))).toBe(false);
    expect(needsRehash('not-a-hash')).toBe(true);
  });
});
