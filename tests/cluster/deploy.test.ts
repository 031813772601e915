/**
 * What deploy/ ships, checked by the tools that will read it: the nginx site by `nginx -t` (as
 * admins install it, with TLS, and as the cluster's balancer runs it), the Prometheus config and
 * alerting rules by `promtool` (the rules' own unit tests included), the systemd unit by
 * `systemd-analyze verify`. nginx, prometheus and systemd are installed with apt when missing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEXTS } from '../../lib/texts';
import { ensureNginx, nginxConfig } from '../../scripts/cluster/balancer';
import { clusterSite, readSite } from '../../scripts/cluster/nginxSite';
import { ensurePromtool } from '../../scripts/cluster/prometheus';
import { ensureProgram } from '../../scripts/cluster/programs';
import { selfSignedCertificate, withCertificate } from './tlsSite';

const deploy = path.resolve(import.meta.dirname, '../../deploy');
const say = (line: string) => console.log(line);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'posts-deploy-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

/** `nginx -t` on `site` inside nginx.conf's http block, as sites-enabled/ would include it. */
function nginxTest(name: string, site: string) {
  const folder = path.join(dir, name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  // The access log in the test's folder: /var/log/nginx may not be writable where the test runs.
  writeFileSync(path.join(folder, 'posts.conf'), site.replaceAll('/var/log/nginx/', `${folder}/`));
  writeFileSync(path.join(folder, 'nginx.conf'), nginxConfig(folder, path.join(folder, 'posts.conf')));
  return run(ensureNginx(say), ['-t', '-p', folder, '-c', path.join(folder, 'nginx.conf'), '-e', 'stderr']);
}

describe('the nginx site (deploy/nginx/posts.conf)', () => {
  it('passes nginx -t as installed: TLS and HTTP/2, with a self-signed certificate in place of the real one', () => {
    const site = withCertificate(readSite(), selfSignedCertificate(dir));
    const checked = nginxTest('tls', site);
    expect(checked.output).toMatch(/test is successful/);
    expect(checked.status).toBe(0);
    expect(site).toMatch(/listen 443 ssl http2;/);
  });

  it('passes nginx -t as the cluster runs it: plain HTTP, every instance upstream, with and without the bucket at /media/', () => {
    const upstreams = ['127.0.0.1:4001', '127.0.0.1:4002'];
    for (const mediaUpstream of [undefined, 'http://127.0.0.1:7480/posts-media']) {
      const site = clusterSite(readSite(), { host: '127.0.0.1', port: 8080, upstreams, mediaUpstream });
      const checked = nginxTest(mediaUpstream ? 'cluster-bucket' : 'cluster', site);
      expect(checked.output).toMatch(/test is successful/);
      expect(checked.status).toBe(0);
      expect(site).not.toMatch(/ssl|listen 80|listen 443|return 301/);
      expect(site.match(/^\s*listen .*$/gm)).toEqual(['    listen 127.0.0.1:8080;']);
      for (const upstream of upstreams) expect(site).toContain(`server ${upstream} max_fails=1 fail_timeout=2s;`);
      expect(site).not.toContain('127.0.0.1:3000');
      expect(site.includes('proxy_pass http://127.0.0.1:7480/posts-media/;')).toBe(Boolean(mediaUpstream));
    }
  });

  it("refuses a body past 5 MiB with the app's own 413 JSON, and keeps SSE unbuffered and /metrics private", () => {
    const site = readSite();
    expect(site).toMatch(/client_max_body_size 5m;/);
    const answer = (uri: string) => new RegExp(`^\\s*${uri} '(.*)';$`, 'm').exec(site)?.[1];
    expect(JSON.parse(answer('/api/uploads') ?? '')).toEqual({ message: TEXTS.fileTooBig, code: 'PayloadTooLarge' });
    expect(JSON.parse(answer('default') ?? '')).toEqual({
      message: 'Request body is too large',
      code: 'PayloadTooLarge',
    });
    expect(site).toMatch(/location = \/api\/notifications\/stream \{[^}]*proxy_buffering off;/);
    expect(site).toMatch(/location = \/metrics \{\s*return 404;/);
  });
});

describe('Prometheus (deploy/prometheus/)', () => {
  const promtool = (...args: string[]) => run(ensurePromtool(say), args);

  it('passes promtool check config, which checks the alerting rules it names too', () => {
    const checked = promtool('check', 'config', path.join(deploy, 'prometheus/prometheus.yml'));
    expect(checked.output).toMatch(/SUCCESS: 1 rule files found/);
    expect(checked.status, checked.output).toBe(0);
  });

  it("passes promtool check rules, and the rules' unit tests (each alert fires when it should, not before)", () => {
    const rules = promtool('check', 'rules', path.join(deploy, 'prometheus/alerts.yml'));
    expect(rules.status, rules.output).toBe(0);
    const names = [...readFileSync(path.join(deploy, 'prometheus/alerts.yml'), 'utf8').matchAll(/- alert: (\w+)/g)];
    expect(names.map((match) => match[1])).toEqual([
      'PostsInstanceDown',
      'PostsHighErrorRate',
      'PostsEventLoopDelay',
      'PostsImageJobsBacklog',
      'PostsMailOutboxBacklog',
      'PostsFederationQueueBacklog',
    ]);
    const tests = promtool('test', 'rules', path.join(deploy, 'prometheus/alerts.test.yml'));
    expect(tests.output).toMatch(/SUCCESS/);
    expect(tests.status, tests.output).toBe(0);
    // Every alert has a unit test.
    const tested = readFileSync(path.join(deploy, 'prometheus/alerts.test.yml'), 'utf8');
    for (const [, name] of names) expect(tested).toContain(`alertname: ${name}`);
  });
});

describe('the systemd unit (deploy/systemd/posts.service)', () => {
  it('passes systemd-analyze verify with nothing to say', () => {
    const checked = run(ensureProgram('systemd-analyze', ['systemd'], say), [
      'verify',
      path.join(deploy, 'systemd/posts.service'),
    ]);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
  });
});
