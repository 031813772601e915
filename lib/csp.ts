/**
 * How a page's Content-Security-Policy nonce reaches the document: the server makes one per
 * response and sets it on the request under this header name (overwriting whatever a client
 * sent); pages/_document.tsx puts it on its inline scripts and Next's.
 */
export const CSP_NONCE_HEADER = 'x-posts-csp-nonce';
