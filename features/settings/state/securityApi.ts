/** The signed-in user's devices, two-factor sign-in, data export and account deletion. */
import type { AuthorizedApp, SessionInfo, UserSummary } from '../../../lib/types';
import { textOf } from '../../../lib/i18n/appTexts';
import { apiClient, getPage, type Page } from '../../../services/apiClient';
import { blobErrorMessage } from '../../../services/blobErrors';

/** The people the user blocks or mutes (issue 23). */
export type Relation = 'blocks' | 'mutes';

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

const EXPORT_URL = '/api/users/me/export';

export const securityApi = {
  /**
   * The account's zip and the server's name for it. Read by the page rather than by a plain link:
   * a link saved a refusal (429) as `export.json` and said nothing (issue 35). Throws the server's message.
   */
  async exportData(): Promise<{ zip: Blob; filename: string }> {
    try {
      const response = await apiClient.get<Blob>(EXPORT_URL, { responseType: 'blob' });
      if (response.data.type !== 'application/zip') throw new Error(textOf('settings.data.exportFailed'));
      const disposition = String(response.headers['content-disposition'] ?? '');
      return { zip: response.data, filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'posts-export.zip' };
    } catch (error) {
      throw new Error(await blobErrorMessage(error), { cause: error });
    }
  },
  relations: (relation: Relation, next?: string): Promise<Page<UserSummary>> =>
    getPage<UserSummary>(next ?? `/api/users/me/${relation}`),
  async undoRelation(relation: Relation, username: string): Promise<void> {
    await apiClient.patch(`/api/users/${encodeURIComponent(username)}/${relation === 'blocks' ? 'unblock' : 'unmute'}`);
  },
  async sessions(): Promise<SessionInfo[]> {
    return (await apiClient.get<SessionInfo[]>('/api/auth/sessions')).data;
  },
  async revokeSession(id: string): Promise<void> {
    await apiClient.delete(`/api/auth/sessions/${encodeURIComponent(id)}`);
  },
  async revokeOtherSessions(): Promise<void> {
    await apiClient.delete('/api/auth/sessions');
  },
  async apps(): Promise<AuthorizedApp[]> {
    return (await apiClient.get<AuthorizedApp[]>('/api/auth/apps')).data;
  },
  async revokeApp(id: string): Promise<void> {
    await apiClient.delete(`/api/auth/apps/${encodeURIComponent(id)}`);
  },
  async twoFactorStatus(): Promise<TwoFactorStatus> {
    return (await apiClient.get<TwoFactorStatus>('/api/auth/2fa')).data;
  },
  async setupTwoFactor(): Promise<{ otpauthUrl: string; secret: string }> {
    return (await apiClient.post<{ otpauthUrl: string; secret: string }>('/api/auth/2fa/setup')).data;
  },
  async enableTwoFactor(code: string): Promise<{ recoveryCodes: string[] }> {
    return (await apiClient.post<{ recoveryCodes: string[] }>('/api/auth/2fa/enable', { code })).data;
  },
  async disableTwoFactor(password: string, code: string): Promise<void> {
    await apiClient.post('/api/auth/2fa/disable', { password, code });
  },
  async deleteAccount(password: string, code?: string): Promise<void> {
    await apiClient.request({ method: 'DELETE', url: '/api/users/me', data: { password, ...(code ? { code } : {}) } });
  },
};
