import { apiUrls } from '../../../lib/apiUrls';
import type { Profile } from '../../../lib/types';
import { apiClient } from '../../../services/apiClient';

export type Connection = 'followers' | 'following';

const userPath = apiUrls.user;

export const usersApi = {
  async profile(username: string): Promise<Profile> {
    return (await apiClient.get<{ user: Profile }>(userPath(username))).data.user;
  },
  async follow(username: string, userId: string): Promise<Profile> {
    return (await apiClient.patch<{ user: Profile }>(`${userPath(username)}/follow`, { userId })).data.user;
  },
  async unfollow(username: string, userId: string): Promise<Profile> {
    return (await apiClient.patch<{ user: Profile }>(`${userPath(username)}/unfollow`, { userId })).data.user;
  },
};
