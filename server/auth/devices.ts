/**
 * Device cookies (OWASP's answer to lockouts anyone can cause): a successful sign-in leaves a
 * long-lived cookie naming the device and the account, signed with the server's secret. A
 * sign-in carrying a valid one for that email is judged by that device's own wrong guesses,
 * so strangers guessing the account's password cannot lock its owner out.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_COOKIE = 'device';
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

export interface Devices {
  /** A new cookie value for a device that has just signed in as `email`. */
  issue(email: string): string;
  /** The device's id when `value` is a cookie this server issued for `email`, else null. */
  verify(value: string | undefined, email: string): string | null;
}

export function deviceCookies(secret: string): Devices {
  const key = createHmac('sha256', secret).update('device-cookie').digest();
  const sign = (email: string, id: string) => createHmac('sha256', key).update(`${email}\n${id}`).digest();
  return {
    issue(email) {
      const id = randomBytes(16).toString('base64url');
      return `${id}.${sign(email, id).toString('base64url')}`;
    },
    verify(value, email) {
      const [id, mac, extra] = value?.split('.') ?? [];
      if (!id || !mac || extra !== undefined) return null;
      const expected = sign(email, id);
      const given = Buffer.from(mac, 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
    },
  };
}
