/** `--name value` flags for the scripts; numbers accept 1_000_000, 1e6, 20k and 1m. */
export function parseFlags(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    if (inline !== undefined) flags.set(name, inline);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags.set(name, argv[++i]);
    else flags.set(name, 'true');
  }
  return flags;
}

export function count(flags: Map<string, string>, name: string, fallback: number): number {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  const match = /^([\d_.e+]+)([km]?)$/i.exec(raw.trim());
  const value = match ? Number(match[1].replaceAll('_', '')) * ({ k: 1e3, m: 1e6 }[match[2].toLowerCase()] ?? 1) : NaN;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number, got "${raw}"`);
  return Math.round(value);
}

/** A share between 0 and 1 (default 0). */
export function share(flags: Map<string, string>, name: string): number {
  const raw = flags.get(name);
  if (raw === undefined) return 0;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new Error(`--${name} must be between 0 and 1, got "${raw}"`);
  return value;
}
