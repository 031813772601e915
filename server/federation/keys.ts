/**
 * Each local user's two key pairs: RSA (draft-cavage HTTP signatures, what Mastodon checks) and
 * Ed25519 (RFC 9421 and Object Integrity Proofs). Made the first time they are needed and kept:
 * a changed key would make every server that cached the old one refuse the user's activities.
 */
import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { FederationKeysTable } from '../db/schema';
import { nowIso } from '../domain/ids';
import type { FederationRepository } from './repository';

const KINDS = [
  { kind: 'rsa', algorithm: 'RSASSA-PKCS1-v1_5' },
  { kind: 'ed25519', algorithm: 'Ed25519' },
] as const;

export type KeyPairsOf = (userId: string) => Promise<CryptoKeyPair[]>;

export function userKeyPairs(data: Pick<FederationRepository, 'findKeys' | 'insertKeysOnce'>): KeyPairsOf {
  async function stored(userId: string): Promise<Map<string, FederationKeysTable>> {
    return new Map((await data.findKeys(userId)).map((row) => [row.kind, row]));
  }

  return async function keyPairsOf(userId) {
    let rows = await stored(userId);
    const missing = KINDS.filter(({ kind }) => !rows.has(kind));
    if (missing.length > 0) {
      const made: FederationKeysTable[] = [];
      for (const { kind, algorithm } of missing) {
        const pair = await generateCryptoKeyPair(algorithm);
        made.push({
          user_id: userId,
          kind,
          public_jwk: JSON.stringify(await exportJwk(pair.publicKey)),
          private_jwk: JSON.stringify(await exportJwk(pair.privateKey)),
          created_at: nowIso(),
        });
      }
      await data.insertKeysOnce(made);
      // Another instance may have made them first: what the table holds is what everyone uses.
      rows = await stored(userId);
    }
    return Promise.all(
      KINDS.map(async ({ kind }) => {
        const row = rows.get(kind)!;
        return {
          publicKey: await importJwk(JSON.parse(row.public_jwk) as JsonWebKey, 'public'),
          privateKey: await importJwk(JSON.parse(row.private_jwk) as JsonWebKey, 'private'),
        };
      }),
    );
  };
}
