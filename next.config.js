/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The server compresses pages itself, after giving React's inline scripts the CSP nonce
  // (server/http/pageResponse.ts): compressed bytes cannot be rewritten.
  compress: false,
  compiler: { styledComponents: true },
  // Bundled on the server too (not required from node_modules), so that the alias below reaches its
  // own import: the server renders the same compiled messages as the browser (issue 75).
  transpilePackages: ['use-intl'],
  // The client router's bloom filter of app-router routes: there is no app directory, so building
  // it on every page load is start-up work for nothing.
  experimental: { clientRouterFilter: false },
  // Always defined, so the client bundle inlines it instead of shipping a `process` polyfill.
  env: { NEXT_PUBLIC_UPLOAD_URL: process.env.NEXT_PUBLIC_UPLOAD_URL || '/api/uploads' },
  turbopack: {
    // RTK Query gets an immer module of its own, in its lazy chunks, so immer's patches plugin,
    // which only RTK Query turns on, stays out of the shared first load (scripts/turbopack/rtkQueryImmer.cjs).
    rules: {
      '*.mjs': {
        condition: { all: ['browser', { path: /@reduxjs\/toolkit\/dist\/query\/rtk-query\.[\w.-]+\.mjs$/ }] },
        loaders: ['./scripts/turbopack/rtkQueryImmer.cjs'],
      },
    },
    resolveAlias: {
      'immer-with-patches': './node_modules/immer/dist/immer.legacy-esm.js',
      // A `process` of a few lines instead of Next's full emulation (scripts/turbopack/browserProcess.cjs).
      'next/dist/compiled/process': { browser: './scripts/turbopack/browserProcess.cjs' },
      // The messages come compiled (lib/i18n/pageIntl.ts): use-intl formats them with its format-only
      // runtime, not the ICU parser it would otherwise ship to every page (issue 75).
      'use-intl/format-message': 'use-intl/format-message/format-only',
    },
  },
};

export default nextConfig;
