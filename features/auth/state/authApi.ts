import type { User } from '../../../lib/types';
import { apiUrls } from '../../../lib/apiUrls';
import { apiClient } from '../../../services/apiClient';

export interface Credentials {
  email: string;
  password: string;
  /** A two-factor code (authenticator or recovery), for accounts that have it on. */
  code?: string;
}

/** `twoFactorRequired`: the password was right, and the account needs a code as well. */
export interface LoginAnswer {
  success: boolean;
  twoFactorRequired?: boolean;
}

export interface SignupData extends Credentials {
  username: string;
}

export interface AccountUpdate {
  username?: string;
  email: string;
  newEmail?: string;
  password: string;
  newPassword?: string;
}

/** A field left out stays as it is; `null` removes the avatar or banner. */
export interface ProfileUpdate {
  email: string;
  avatar?: string | null;
  banner?: string | null;
  description?: string;
  /** '' or null: none (issue 68, item 32). */
  displayName?: string | null;
  /** All the profile links, replacing the saved ones. */
  fields?: { name: string; value: string }[];
}

/** Readable cookie the server sets beside the HttpOnly session cookies (docs/api-decisions.md). */
const SESSION_HINT = 'has_session=1';

/** True when this browser most likely holds a session (the lookup still decides). */
export function hasSessionHint(): boolean {
  return typeof document !== 'undefined' && document.cookie.split(/;\s*/).includes(SESSION_HINT);
}

/** Drops the hint once the server said the session is gone, so the next visit looks nobody up. */
export function dropSessionHint(): void {
  document.cookie = 'has_session=; Max-Age=0; path=/';
}

/** The English of `shell.sessionEnded` (AppShell shows it), kept for the tests that expect it. */

export const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';

export const authApi = {
  async signup(data: SignupData): Promise<void> {
    await apiClient.post('/api/auth/signup', data);
  },
  async login(data: Credentials): Promise<LoginAnswer> {
    return (await apiClient.post<LoginAnswer>('/api/auth/login', data)).data;
  },
  async logout(): Promise<void> {
    await apiClient.post('/api/auth/logout');
  },
  /** The server renews a lapsed access token itself on this call, from the refresh cookie. */
  async getLoggedUser(): Promise<User> {
    return (await apiClient.get<User>(apiUrls.loggedUser())).data;
  },
  /** The signed-in user's own account and profile changes. */
  async updateAccount(update: AccountUpdate): Promise<User> {
    return (await apiClient.patch<{ user: User }>('/api/users/updateAccount', update)).data.user;
  },
  async updateProfile(update: ProfileUpdate): Promise<User> {
    return (await apiClient.patch<{ user: User }>('/api/users/updateProfile', update)).data.user;
  },
};
