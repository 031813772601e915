/**
 * The `process` the browser bundle gets (next.config.js aliases Next's process polyfill to this):
 * the libraries in the pages read only `process.env` (empty: Next inlines the variables it knows),
 * and axios falls back to `nextTick` only without `queueMicrotask`. Next's own polyfill is a full
 * Node `process` emulation, 0.8 kB gzip of the shared first load nothing here calls.
 */
module.exports = {
  env: {},
  browser: true,
  title: 'browser',
  argv: [],
  version: '',
  versions: {},
  nextTick: (callback, ...args) => queueMicrotask(() => callback(...args)),
  cwd: () => '/',
};
