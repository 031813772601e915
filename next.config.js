/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  compiler: { styledComponents: true },
  // Always defined, so the client bundle inlines it instead of shipping a `process` polyfill.
  env: { NEXT_PUBLIC_UPLOAD_URL: process.env.NEXT_PUBLIC_UPLOAD_URL || '/api/uploads' },
};

export default nextConfig;
