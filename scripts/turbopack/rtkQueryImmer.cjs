/**
 * Turbopack loader for RTK Query's browser bundle: its `import … from "immer"` becomes
 * `immer-with-patches` (next.config.js aliases it to immer.legacy-esm.js), a second immer
 * module that only RTK Query's lazy chunks load. RTK Query turns on immer's patches plugin
 * (`enablePatches`); on the shared immer module that plugin would sit in every page's first load
 * (docs/frontend.md, "List screens on RTK Query"). Drafts from either copy work with the other's
 * helpers: immer marks them with global symbols (`Symbol.for`).
 */
module.exports = function rtkQueryImmer(source) {
  const rewritten = source.replace(/from\s*(["'])immer\1/g, 'from "immer-with-patches"');
  if (rewritten === source) throw new Error(`rtkQueryImmer: no import of immer in ${this.resourcePath}`);
  return rewritten;
};
