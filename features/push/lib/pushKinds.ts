/** The kinds a person may have pushed, as the server stores them (server/push/kinds.ts); their labels are `push.kind.*`. */
export const PUSH_KINDS = ['follow', 'follow_request', 'like', 'comment', 'mention'] as const;

export type PushKind = (typeof PUSH_KINDS)[number];
export type PushAlerts = Record<PushKind, boolean>;

/** The VAPID key as `pushManager.subscribe` takes it: bytes from base64url. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
