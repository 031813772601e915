/**
 * The shipped nginx site logs no query strings (issue 68, item 37): streaming clients carry their
 * token as `?access_token=`, which nginx's default `combined` format (`$request`) writes to the
 * access log. Read from the file (nginx is not needed; tests/cluster/nginxSite.test.ts runs the site
 * in a real nginx): every `access_log` names a format of the file's own whose fields hold no query.
 */
import { clusterSite, readSite } from '../../scripts/cluster/nginxSite';

const site = readSite();
/** The site's code, comments removed, with `'...' '...'` continuations joined. */
const code = site
  .split('\n')
  .map((line) => line.replace(/#.*/, ''))
  .join('\n');

function formats(): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name, body] of code.matchAll(/\blog_format\s+(\S+)\s+((?:'[^']*'\s*)+);/g))
    found.set(name, [...body.matchAll(/'([^']*)'/g)].map(([, part]) => part).join(''));
  return found;
}

describe('deploy/nginx/posts.conf access log', () => {
  it('every access_log uses a format of its own that holds no query string', () => {
    const known = formats();
    const logs = [...code.matchAll(/\baccess_log\s+([^;]+);/g)].map(([, args]) => args.trim().split(/\s+/));
    expect(logs.length).toBeGreaterThan(0);
    for (const [path, format] of logs) {
      expect(path).not.toBe('off');
      expect(known.has(format), `access_log ${path} ${format ?? '(combined)'}`).toBe(true);
      const fields = known.get(format)!;
      for (const withQuery of ['$request ', '$request"', '$request_uri', '$args', '$query_string', '$is_args', '$arg_'])
        expect(fields.includes(withQuery), `${format} logs ${withQuery}`).toBe(false);
      expect(fields).toContain('$uri');
      expect(fields).toContain('$request_id');
    }
  });

  it('the cluster run keeps no access log (it may not write /var/log/nginx)', () => {
    const run = clusterSite(site, { host: '127.0.0.1', port: 3000, upstreams: ['127.0.0.1:3001'] });
    const logs = [...run.replace(/#.*/g, '').matchAll(/\baccess_log\s+([^;]+);/g)].map(([, args]) => args.trim());
    expect(logs.length).toBeGreaterThan(0);
    expect(new Set(logs)).toEqual(new Set(['off']));
  });
});
