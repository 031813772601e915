/** Debian programs the cluster and its checks run (nginx, prometheus, promtool), installed with apt when missing. */
import { spawnSync } from 'node:child_process';

/**
 * The path of `program`; when missing, the first of `packages` that installs (as root, or through
 * sudo) provides it. Fails naming the package to install by hand.
 */
export function ensureProgram(program: string, packages: string[], say: (line: string) => void): string {
  const found = () => spawnSync('sh', ['-c', `command -v ${program} || ls /usr/sbin/${program}`], { encoding: 'utf8' });
  let which = found();
  if (which.status !== 0) {
    say(`${program} is missing: installing it with apt-get`);
    const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
    const installs = packages.map((name) => `${sudo}apt-get install -y -qq ${name}`).join(' || ');
    const install = spawnSync('sh', ['-c', `${sudo}apt-get update -qq && (${installs}) >/dev/null`], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (install.status !== 0 || (which = found()).status !== 0)
      throw new Error(`Installing ${program} failed: install it (apt-get install ${packages.at(-1)})`);
  }
  return which.stdout.trim().split('\n')[0];
}
