/** Followed tags (issue 73): one tag's state, follow and unfollow, and the viewer's list. */
import { apiUrls } from '../../../lib/apiUrls';
import { apiClient } from '../../../services/apiClient';

export interface TagState {
  name: string;
  following: boolean;
}

export interface FollowedTag {
  name: string;
  followedAt: string;
}

export const tagsApi = {
  async state(name: string): Promise<TagState> {
    return (await apiClient.get<TagState>(apiUrls.tag(name))).data;
  },
  /** `PUT` follows, `DELETE` unfollows; either answers the tag's state. */
  async follow(name: string, following: boolean): Promise<TagState> {
    const url = `${apiUrls.tag(name)}/follow`;
    return (await apiClient.request<TagState>({ method: following ? 'PUT' : 'DELETE', url })).data;
  },
  async followed(): Promise<FollowedTag[]> {
    return (await apiClient.get<FollowedTag[]>(apiUrls.followedTags())).data;
  },
};
