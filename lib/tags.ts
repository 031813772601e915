/** How tags are written: the one normalisation the client, the server and the page table share. */

/** Trims a tag, drops one leading '#' and composes it (NFC), so one word typed two ways is one tag. */
export function normalizeTag(raw: string): string {
  const trimmed = raw.normalize('NFC').trim();
  return trimmed.startsWith('#') ? trimmed.slice(1).trim() : trimmed;
}

/** What search and duplicate detection compare, and what is stored for search: lower case, NFC. */
export function tagKey(tag: string): string {
  return tag.toLowerCase().normalize('NFC');
}

/** Normalizes a tag list: trims, drops duplicates ignoring case (first spelling wins). */
export function normalizeTags(raw: readonly string[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const value of raw) {
    const tag = normalizeTag(value);
    const key = tagKey(tag);
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}

/** The tags a comma-separated list names (a `/tagged/` address): normalized, none empty. */
export function tagList(text: string): string[] {
  return normalizeTags(text.split(',')).filter(Boolean);
}
