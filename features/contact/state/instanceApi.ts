import { apiUrls } from '../../../lib/apiUrls';
import type { InstanceInfo } from '../../../lib/types';
import { apiClient } from '../../../services/apiClient';

export const instanceApi = {
  async instance(): Promise<InstanceInfo> {
    return (await apiClient.get<InstanceInfo>(apiUrls.instance())).data;
  },
};
