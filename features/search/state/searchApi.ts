import type { PersonResult } from '../../../lib/types';
import { apiClient } from '../../../services/apiClient';

export const searchApi = {
  /** Up to 20 people whose username starts with `q`, ignoring case. */
  async people(q: string, signal?: AbortSignal): Promise<PersonResult[]> {
    return (await apiClient.get<PersonResult[]>(`/api/users/search?${new URLSearchParams({ q })}`, { signal })).data;
  },
};
