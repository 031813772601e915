import { AxiosError } from 'axios';
import type { User } from '../lib/types';
import { apiClient, refreshSession } from './apiClient';

export interface Credentials {
  email: string;
  password: string;
}

export interface SignupData extends Credentials {
  username: string;
}

export const authApi = {
  async signup(data: SignupData): Promise<void> {
    await apiClient.post('/api/auth/signup', data);
  },
  async login(data: Credentials): Promise<void> {
    await apiClient.post('/api/auth/login', data);
  },
  async logout(): Promise<void> {
    await apiClient.post('/api/auth/logout');
  },
  /**
   * The access token lives 15 minutes; when it has expired the refresh token restores the
   * session once, so a visitor who comes back later is not signed out by mistake.
   */
  async getLoggedUser(): Promise<User> {
    try {
      return (await apiClient.get<User>('/api/auth/getLoggedUser')).data;
    } catch (error) {
      if (!(error instanceof AxiosError) || error.response?.status !== 401) throw error;
      await refreshSession();
      return (await apiClient.get<User>('/api/auth/getLoggedUser')).data;
    }
  },
};
