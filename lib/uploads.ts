/** Client-side upload checks (kept apart from the yup schemas so the store does not pull yup in). */
import { UPLOAD_MAX_BYTES } from './limits';
import { TEXTS } from './texts';

export const IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;

/** Checked before an upload; the server checks the real bytes again. */
export function imageFileError(file: { size: number; type: string }): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return TEXTS.allowedFormats;
  if (file.size >= UPLOAD_MAX_BYTES) return TEXTS.fileTooBig;
  return null;
}
