/**
 * How much JSON-LD this server agrees to process from elsewhere (issue 68, item 33). Expanding a
 * document costs time that grows with its inline `@context` (scoped contexts, a `@context` inside a
 * term's definition, grow it quadratically: 2,000 of them held the event loop 17 s) and with its
 * nesting. What servers send stays far below these bounds (Mastodon's and Misskey's inline contexts
 * have 20–40 terms and no scoped context; Pleroma names one context document), so a document past
 * them is refused before any JSON-LD work, with the reason.
 */

/** Nesting of objects and arrays (an activity wrapping an object wrapping a tag is 4–6). */
export const MAX_JSON_DEPTH = 32;
/** Term definitions in all the inline contexts of one document, scoped ones included. */
export const MAX_CONTEXT_TERMS = 256;
/** Contexts defined inside a term's definition (type- or property-scoped contexts). */
export const MAX_SCOPED_CONTEXTS = 16;
/** Context documents named by URL in one document. */
export const MAX_CONTEXT_URLS = 16;

interface Tally {
  terms: number;
  scoped: number;
  urls: number;
}

/** Why `context` (a `@context` value) is past the bounds, or null; counts into `tally`. */
function contextProblem(context: unknown, tally: Tally, depth: number): string | null {
  if (depth > MAX_JSON_DEPTH) return `It is nested deeper than ${MAX_JSON_DEPTH} levels.`;
  if (context === null) return null;
  if (Array.isArray(context)) {
    for (const item of context) {
      const problem = contextProblem(item, tally, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof context === 'string') {
    if (!/^https?:\/\//i.test(context))
      return `Its @context names ${JSON.stringify(context.slice(0, 80))}, not an http(s) URL.`;
    if (++tally.urls > MAX_CONTEXT_URLS) return `Its @context names more than ${MAX_CONTEXT_URLS} documents.`;
    return null;
  }
  if (typeof context !== 'object') return 'Its @context is neither a URL, an object nor a list of them.';
  for (const [term, definition] of Object.entries(context)) {
    if (++tally.terms > MAX_CONTEXT_TERMS) return `Its @context defines more than ${MAX_CONTEXT_TERMS} terms.`;
    // JSON-LD 1.1's `@import` loads a context document too.
    if (term === '@import') {
      const problem = contextProblem(definition, tally, depth + 1);
      if (problem) return problem;
    }
    if (term === '@context' || (typeof definition === 'object' && definition !== null && '@context' in definition)) {
      if (++tally.scoped > MAX_SCOPED_CONTEXTS)
        return `Its @context holds more than ${MAX_SCOPED_CONTEXTS} scoped contexts.`;
      const scoped = term === '@context' ? definition : (definition as { '@context': unknown })['@context'];
      const problem = contextProblem(scoped, tally, depth + 1);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * Why this parsed JSON document is more than this server processes as JSON-LD, or null when it is
 * within the bounds. Walks the whole document: a `@context` may sit on any object.
 */
export function jsonLdProblem(document: unknown): string | null {
  const tally: Tally = { terms: 0, scoped: 0, urls: 0 };
  const walk = (value: unknown, depth: number): string | null => {
    if (typeof value !== 'object' || value === null) return null;
    if (depth > MAX_JSON_DEPTH) return `It is nested deeper than ${MAX_JSON_DEPTH} levels.`;
    if (Array.isArray(value)) {
      for (const item of value) {
        const problem = walk(item, depth + 1);
        if (problem) return problem;
      }
      return null;
    }
    for (const [key, item] of Object.entries(value)) {
      const problem = key === '@context' ? contextProblem(item, tally, depth + 1) : walk(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  };
  return walk(document, 0);
}
