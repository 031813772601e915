import { apiUrls } from '../../../lib/apiUrls';
import type { AppNotification } from '../../../lib/types';
import { apiClient, getPage, type Page } from '../../../services/apiClient';

const base = apiUrls.notifications();
/** Not first reads of a page, so not in lib/apiUrls (every page's first load). */
export const NOTIFICATION_STREAM_URL = `${base}/stream`;

export const notificationsApi = {
  list: (): Promise<Page<AppNotification>> => getPage<AppNotification>(apiUrls.notifications()),
  page: (url: string): Promise<Page<AppNotification>> => getPage<AppNotification>(url),
  async unread(): Promise<number> {
    return (await apiClient.get<{ count: number }>(`${base}/unread`)).data.count;
  },
  /** Marks every notification read, or those up to and including `upTo` (newest first); answers the unread count left. */
  async markRead(upTo?: string): Promise<number> {
    return (await apiClient.post<{ count: number }>(`${base}/read`, upTo ? { upTo } : {})).data.count;
  },
};
