/**
 * The cluster's balancer is the deployment's nginx site (deploy/nginx/posts.conf), made plain HTTP
 * for one machine: one source for both, so what the cluster test checks is what admins install.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const siteFile = path.resolve(import.meta.dirname, '../../deploy/nginx/posts.conf');

export interface ClusterSite {
  /** The balancer's plain-HTTP address. */
  host: string;
  port: number;
  /** The instances' `host:port`. */
  upstreams: string[];
  /** The bucket's public URL (`http://127.0.0.1:7480/posts-media`), served at `/media/`; unset: the site's own `/media/`. */
  mediaUpstream?: string;
}

/** `/media/` read from the bucket, with the headers the instances' own `/media` sends. Reads only. */
function bucketLocation(indent: string, mediaUpstream: string): string {
  return [
    `location /media/ {`,
    `    limit_except GET { deny all; }`,
    `    proxy_pass ${mediaUpstream.replace(/\/?$/, '/')};`,
    `    proxy_http_version 1.1;`,
    `    # The site's session cookies are none of the bucket's business.`,
    `    proxy_set_header Cookie "";`,
    `    proxy_hide_header X-Content-Type-Options;`,
    `    add_header X-Content-Type-Options nosniff always;`,
    `    proxy_connect_timeout 2s;`,
    `}`,
  ]
    .map((line) => indent + line)
    .join('\n');
}

/** The line closing the block that opens at line `start`. */
function blockEnd(lines: string[], start: number): number {
  let depth = 0;
  for (let n = start; n < lines.length; n += 1) {
    const code = lines[n].replace(/#.*/, '');
    depth += (code.match(/\{/g) ?? []).length - (code.match(/\}/g) ?? []).length;
    if (depth === 0) return n;
  }
  throw new Error(`${siteFile}: the block at line ${start + 1} is not closed`);
}

/** Whether `region` holds `listen` lines of its own (a whole `server` block in it does not count). */
function holdsListen(region: string[]): boolean {
  let depth = 0;
  for (const line of region) {
    const code = line.replace(/#.*/, '');
    if (depth === 0 && /^\s*listen\s/.test(code)) return true;
    depth += (code.match(/\{/g) ?? []).length - (code.match(/\}/g) ?? []).length;
  }
  return false;
}

function fail(problem: string): never {
  throw new Error(`${siteFile}: ${problem} (scripts/cluster/nginxSite.ts reads it)`);
}

/** The site as the cluster runs it: the rules are written at the top of deploy/nginx/posts.conf. */
export function clusterSite(site: string, { host, port, upstreams, mediaUpstream }: ClusterSite): string {
  const out: string[] = [];
  const lines = site.split('\n');
  let listens = 0;
  for (let n = 0; n < lines.length; n += 1) {
    const line = lines[n];
    const indent = /^\s*/.exec(line)![0];
    if (line.trim() === '# BEGIN tls-only') {
      const end = lines.findIndex((other, m) => m > n && other.trim() === '# END tls-only');
      if (end < 0) fail(`the tls-only region at line ${n + 1} has no "# END tls-only"`);
      if (holdsListen(lines.slice(n + 1, end))) {
        out.push(`${indent}listen ${host.includes(':') ? `[${host}]` : host}:${port};`);
        listens += 1;
      }
      n = end;
    } else if (/^\s*upstream\s+posts_app\s*\{/.test(line)) {
      const end = blockEnd(lines, n);
      const body = lines.slice(n + 1, end);
      const first = body.find((inside) => /^\s*server\s/.test(inside));
      if (!first) fail('upstream posts_app has no server line');
      const parameters = first.trim().replace(/;$/, '').split(/\s+/).slice(2).join(' ');
      const servers = upstreams.map(
        (upstream) => `${/^\s*/.exec(first)![0]}${['server', upstream, parameters].filter(Boolean).join(' ')};`,
      );
      out.push(line, ...body.filter((inside) => !/^\s*server\s/.test(inside)), ...servers, lines[end]);
      n = end;
    } else if (/^\s*access_log\s/.test(line)) {
      // The run logs no requests (nginxConfig: `access_log off`), and may not write /var/log/nginx.
      out.push(`${indent}access_log off;`);
    } else if (mediaUpstream && /^\s*location\s+\/media\/\s*\{/.test(line)) {
      out.push(bucketLocation(indent, mediaUpstream));
      n = blockEnd(lines, n);
    } else {
      out.push(line);
    }
  }
  if (listens !== 1) fail(`expected one tls-only region holding the listen lines, found ${listens}`);
  return out.join('\n');
}

export const readSite = (): string => readFileSync(siteFile, 'utf8');
