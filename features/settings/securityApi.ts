/** The signed-in user's devices, two-factor sign-in, data export and account deletion. */
import type { SessionInfo, UserSummary } from '../../lib/types';
import { apiClient, getPage, type Page } from '../../services/apiClient';

/** The people the user blocks or mutes (issue 23). */
export type Relation = 'blocks' | 'mutes';

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

/** A plain link downloads it: the browser streams the zip to disk. */
export const EXPORT_URL = '/api/users/me/export';

export const securityApi = {
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
