import type { UploadPreset } from '../../../lib/limits';
import type { UploadResult } from '../../../lib/types';
import { apiClient } from '../../../services/apiClient';

/** The image hosting service: this server's own by default, or any service speaking its protocol. */
export const UPLOAD_URL = process.env.NEXT_PUBLIC_UPLOAD_URL || '/api/uploads';

export const uploadsApi = {
  /** `signal` cancels the upload (a photo removed from the composer while it was being sent). */
  async upload(
    file: File,
    preset: UploadPreset,
    onProgress?: (percent: number) => void,
    signal?: AbortSignal,
  ): Promise<UploadResult> {
    const form = new FormData();
    form.append('upload_preset', preset);
    form.append('file', file);
    const response = await apiClient.post<UploadResult>(UPLOAD_URL, form, {
      // Credentials only for our own service; a third-party host must not get our cookies.
      withCredentials: UPLOAD_URL.startsWith('/'),
      signal,
      onUploadProgress: (event) => {
        if (onProgress && event.total) onProgress(Math.round((event.loaded * 100) / event.total));
      },
    });
    return response.data;
  },
};
