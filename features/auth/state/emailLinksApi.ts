/** Password reset and email verification calls (API.md, Auth). Only the pages that use them load this. */
import { apiClient } from '../../../services/apiClient';

export const emailLinksApi = {
  /** Answers the same whether or not the address has an account. */
  async forgotPassword(email: string): Promise<void> {
    await apiClient.post('/api/auth/password/forgot', { email });
  },
  async resetPassword(token: string, password: string): Promise<void> {
    await apiClient.post('/api/auth/password/reset', { token, password });
  },
  /** The address that is now the account's (verified, or changed to). */
  async verifyEmail(token: string): Promise<string> {
    return (await apiClient.post<{ email: string }>('/api/auth/email/verify', { token })).data.email;
  },
  async resendVerification(): Promise<void> {
    await apiClient.post('/api/auth/email/resend');
  },
};
