import { generateCryptoKeyPair, exportJwk } from '@fedify/fedify';
import { Activity, CryptographicKey } from '@fedify/vocab';
const { publicKey } = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
const key = new CryptographicKey({ id: new URL('http://127.0.0.1:1/actors/zoe#main-key'), owner: new URL('http://127.0.0.1:1/actors/zoe'), publicKey });
const serialized = await key.toJsonLd();
const like = { '@context': 'https://www.w3.org/ns/activitystreams', id: 'http://127.0.0.1:1/likes/1', type: 'Like', actor: 'http://127.0.0.1:1/actors/zoe', object: 'http://127.0.0.1:2/post/0190' };
async function time(name: string, n: number, f: () => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await f();
  const c = process.cpuUsage();
  for (let i = 0; i < n; i++) await f();
  const u = process.cpuUsage(c);
  console.log(`${name}: ${((u.user + u.system) / 1000 / n).toFixed(3)} ms CPU each`);
}
await time('CryptographicKey.fromJsonLd (key cache hit)', 2000, () => CryptographicKey.fromJsonLd(serialized));
await time('Activity.fromJsonLd (a Like)', 2000, () => Activity.fromJsonLd(like));
const jwk = await exportJwk(publicKey);
await time('importKey jwk', 2000, () => crypto.subtle.importKey('jwk', jwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['verify']));
import jsonld from 'jsonld';
console.log(JSON.stringify(serialized).slice(0, 300));
const { preloadedContexts } = await import("@fedify/vocab-runtime");
const expanded = await jsonld.expand(serialized as object, { documentLoader: async (url: string) => ({ contextUrl: null, document: (preloadedContexts as Record<string, unknown>)[url], documentUrl: url }) });
await time('CryptographicKey.fromJsonLd (expanded form)', 2000, () => CryptographicKey.fromJsonLd(expanded));
const k2 = await CryptographicKey.fromJsonLd(expanded);
console.log(k2.id?.href, k2.ownerId?.href, (await k2.publicKey) !== null);
