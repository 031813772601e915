/** Error answers of downloads (`responseType: 'blob'`): axios hands their JSON over as a Blob. */
import { errorMessage } from './apiClient';

/** The server's message in an error answer read as a Blob (a refused export: 429, 401). */
export async function blobErrorMessage(error: unknown): Promise<string> {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (!(data instanceof Blob)) return errorMessage(error);
  try {
    return errorMessage({ response: { data: JSON.parse(await data.text()) as unknown } });
  } catch {
    return errorMessage(error);
  }
}
