/** The parts of `web-push` and `http_ece` (tests) this app uses: neither ships its own types. */
declare module 'web-push' {
  interface PushSubscriptionLike {
    endpoint: string;
    keys: { p256dh: string; auth: string };
  }
  interface RequestOptions {
    vapidDetails: { subject: string; publicKey: string; privateKey: string };
    TTL?: number;
    urgency?: 'very-low' | 'low' | 'normal' | 'high';
    contentEncoding?: 'aes128gcm' | 'aesgcm';
    topic?: string;
  }
  interface RequestDetails {
    method: 'POST';
    headers: Record<string, string | number>;
    body: Buffer | null;
    endpoint: string;
  }
  const webpush: {
    generateVAPIDKeys(): { publicKey: string; privateKey: string };
    generateRequestDetails(
      subscription: PushSubscriptionLike,
      payload: string | Buffer,
      options: RequestOptions,
    ): RequestDetails;
  };
  export default webpush;
}

declare module 'http_ece' {
  const ece: {
    decrypt(
      buffer: Buffer,
      params: { version: 'aes128gcm'; privateKey: import('node:crypto').ECDH; authSecret: Buffer | string },
    ): Buffer;
  };
  export default ece;
}
