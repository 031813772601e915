import { PUSH_KINDS, keyBytes } from '../../../../features/push/lib/pushKinds';

describe('the push section’s helpers', () => {
  it('reads the VAPID key from base64url (no padding, - and _) into the bytes subscribe takes', () => {
    const bytes = Uint8Array.from([0x04, 0xfb, 0xff, 0xfe, 0x3e, 0x3f, 0x00]);
    const base64url = Buffer.from(bytes).toString('base64url');
    expect(base64url).toMatch(/[-_]/);
    expect([...keyBytes(base64url)]).toEqual([...bytes]);
  });

  it('offers the kinds the server stores, in its order', () => {
    expect(PUSH_KINDS).toEqual(['follow', 'follow_request', 'like', 'comment', 'mention']);
  });
});
