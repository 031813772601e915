import { apiUrls } from '../../lib/apiUrls';
import type { AppNotification } from '../../lib/types';
import { apiClient, getPage, type Page } from '../../services/apiClient';

export const activityApi = {
  list: (): Promise<Page<AppNotification>> => getPage<AppNotification>(apiUrls.notifications()),
  page: (url: string): Promise<Page<AppNotification>> => getPage<AppNotification>(url),
  async unread(): Promise<number> {
    return (await apiClient.get<{ count: number }>(apiUrls.unreadNotifications())).data.count;
  },
  /** Marks every notification read, or those up to and including `upTo` (newest first); answers the unread count left. */
  async markRead(upTo?: string): Promise<number> {
    return (await apiClient.post<{ count: number }>(apiUrls.readNotifications(), upTo ? { upTo } : {})).data.count;
  },
};
