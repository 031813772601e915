// Reference 2 of the benchmark: an empty Next.js pages API route served by `next start`,
// built with the project's own `next`. Plain JavaScript on purpose: no tsconfig here, so the
// main project's `tsc` and `next build` never see this app (Next only reads ./pages of its own dir).
/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Build output under the git-ignored ./data, which the main tsconfig excludes: Next writes
  // .ts type files into its build folder, and `tsc` of the main project would pick them up here.
  distDir: '../../data/next-reference',
};

export default nextConfig;
