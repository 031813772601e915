/** Instagram archives and Posts exports imported as posts (issue 76): upload, pick, progress, cancel. */
import type { InstagramImport } from '../../../lib/types';
import { apiClient, errorMessage } from '../../../services/apiClient';

const URL = '/api/imports/instagram';

/** The call, its failure as the server's message. */
async function call<T>(run: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await run()).data;
  } catch (error) {
    throw new Error(errorMessage(error), { cause: error });
  }
}

export const instagramApi = {
  /** Sends the archive; the answer lists the posts found. `onProgress`: the share sent, 0 to 1. */
  async upload(file: File, onProgress?: (share: number) => void): Promise<InstagramImport> {
    const form = new FormData();
    form.append('file', file);
    const answer = await call(() =>
      apiClient.post<{ import: InstagramImport }>(URL, form, {
        onUploadProgress: (event) => onProgress?.(event.total ? event.loaded / event.total : 0),
      }),
    );
    return answer.import;
  },
  /** `settings`: also bring a Posts export's profile settings. */
  start: async (id: string, positions: number[], settings = false) =>
    (
      await call(() =>
        apiClient.post<{ import: InstagramImport }>(`${URL}/${encodeURIComponent(id)}/start`, { positions, settings }),
      )
    ).import,
  cancel: async (id: string) =>
    (await call(() => apiClient.post<{ import: InstagramImport }>(`${URL}/${encodeURIComponent(id)}/cancel`))).import,
  progress: async (id: string) =>
    (await call(() => apiClient.get<{ import: InstagramImport }>(`${URL}/${encodeURIComponent(id)}`))).import,
  latest: async () => (await call(() => apiClient.get<{ import: InstagramImport | null }>(URL))).import,
};
