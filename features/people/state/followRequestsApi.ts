/** The API calls of follow requests (issue 70): `docs/API.md`, "Follow requests". */
import { apiUrls } from '../../../lib/apiUrls';
import { PAGE_LIMIT_MAX } from '../../../lib/limits';
import type { PersonResult } from '../../../lib/types';
import { apiClient } from '../../../services/apiClient';

export type FollowRequestPerson = PersonResult & { requestId: string; requestedAt: string };

export const followRequestsApi = {
  /** The newest page, as large as a page may be (the rest once those are answered). */
  list: async () => (await apiClient.get<FollowRequestPerson[]>(`/api/follow-requests?limit=${PAGE_LIMIT_MAX}`)).data,
  answer: (userId: string, answer: 'approve' | 'reject') =>
    apiClient.post(`/api/follow-requests/${encodeURIComponent(userId)}/${answer}`),
  removeFollower: (username: string) => apiClient.delete(`${apiUrls.user(username)}/follower`),
  setApproval: (on: boolean) => apiClient.patch('/api/users/updateProfile', { approveFollowers: on }),
};
