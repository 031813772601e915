import { apiUrls } from '../../lib/apiUrls';
import type { InstanceInfo, Profile, User, UserSummary } from '../../lib/types';
import { apiClient, getPage, type Page } from '../../services/apiClient';

export interface AccountUpdate {
  username?: string;
  email: string;
  newEmail?: string;
  password: string;
  newPassword?: string;
}

export interface ProfileUpdate {
  email: string;
  avatar: string | null;
  banner: string | null;
  description: string;
}

export type Connection = 'followers' | 'following';

const userPath = apiUrls.user;

export const usersApi = {
  async profile(username: string): Promise<Profile> {
    return (await apiClient.get<{ user: Profile }>(userPath(username))).data.user;
  },
  connections: (username: string, kind: Connection): Promise<Page<UserSummary>> =>
    getPage<UserSummary>(`${userPath(username)}/${kind}`),
  connectionsPage: (url: string): Promise<Page<UserSummary>> => getPage<UserSummary>(url),
  async follow(username: string, userId: string): Promise<Profile> {
    return (await apiClient.patch<{ user: Profile }>(`${userPath(username)}/follow`, { userId })).data.user;
  },
  async unfollow(username: string, userId: string): Promise<Profile> {
    return (await apiClient.patch<{ user: Profile }>(`${userPath(username)}/unfollow`, { userId })).data.user;
  },
  async updateAccount(update: AccountUpdate): Promise<User> {
    return (await apiClient.patch<{ user: User }>('/api/users/updateAccount', update)).data.user;
  },
  async updateProfile(update: ProfileUpdate): Promise<User> {
    return (await apiClient.patch<{ user: User }>('/api/users/updateProfile', update)).data.user;
  },
  async instance(): Promise<InstanceInfo> {
    return (await apiClient.get<InstanceInfo>(apiUrls.instance())).data;
  },
};
