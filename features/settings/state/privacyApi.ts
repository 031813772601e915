import type { Audience } from '../../../lib/audience';
import { apiClient } from '../../../services/apiClient';

/** The account's privacy settings besides approving followers (`features/people`'s). */
export const privacyApi = {
  setDefaultAudience: (audience: Audience) =>
    apiClient.patch('/api/users/updateProfile', { defaultAudience: audience }),
  /** "Suggest my account and show my posts in Explore" (issue 73). */
  setDiscoverable: (discoverable: boolean) => apiClient.patch('/api/users/updateProfile', { discoverable }),
};
