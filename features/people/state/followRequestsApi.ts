/** The API calls of follow requests (issue 70): `docs/API.md`, "Follow requests". */
import { apiUrls } from '../../../lib/apiUrls';
import { PAGE_LIMIT_MAX } from '../../../lib/limits';
import type { PersonResult } from '../../../lib/types';
import { apiClient, getPage } from '../../../services/apiClient';

export type FollowRequestPerson = PersonResult & { requestId: string; requestedAt: string };

export const followRequestsApi = {
  /** The newest page, as large as a page may be; `page` follows its `next` link. */
  first: () => getPage<FollowRequestPerson>(`/api/follow-requests?limit=${PAGE_LIMIT_MAX}`),
  page: (url: string) => getPage<FollowRequestPerson>(url),
  /** How many wait in all (the badge), whatever has been loaded. */
  count: async () => (await apiClient.get<{ count: number }>('/api/follow-requests/count')).data.count,
  answer: (userId: string, answer: 'approve' | 'reject') =>
    apiClient.post(`/api/follow-requests/${encodeURIComponent(userId)}/${answer}`),
  removeFollower: (username: string) => apiClient.delete(`${apiUrls.user(username)}/follower`),
  setApproval: (on: boolean) => apiClient.patch('/api/users/updateProfile', { approveFollowers: on }),
};
