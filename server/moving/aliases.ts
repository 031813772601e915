/** A person's aliases as kept (`users.also_known_as`, a JSON array of actor addresses): the addresses, anything else left out. */
export function aliasesIn(json: string | null): string[] {
  if (!json) return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed)
      ? parsed.filter((uri): uri is string => typeof uri === 'string' && URL.canParse(uri))
      : [];
  } catch {
    return [];
  }
}
