/** The nginx site as admins install it, for tests: a self-signed certificate in place of the real one. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export interface Certificate {
  cert: string;
  key: string;
}

/** A certificate for posts.example (the site's placeholder name), made with openssl in `dir`. */
export function selfSignedCertificate(dir: string): Certificate {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=posts.example',
      '-addext', 'subjectAltName=DNS:posts.example', '-keyout', key, '-out', cert], // prettier-ignore
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  return { cert, key };
}

/** `site` with `certificate` in place of the placeholder paths. */
export function withCertificate(site: string, { cert, key }: Certificate): string {
  const replaced = site
    .replace(/(ssl_certificate\s+)\S+;/, `$1${cert};`)
    .replace(/(ssl_certificate_key\s+)\S+;/, `$1${key};`);
  if (!replaced.includes(cert) || !replaced.includes(key)) throw new Error('The site names no certificate to replace');
  return replaced;
}
