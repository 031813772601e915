import { apiUrls } from '../../../lib/apiUrls';
import type { Explore } from '../../../lib/types';
import { apiClient } from '../../../services/apiClient';

/** Explore's one read (issue 73): trending posts and tags, people to follow. */
export const exploreApi = {
  get: async (): Promise<Explore> => (await apiClient.get<Explore>(apiUrls.explore())).data,
};
