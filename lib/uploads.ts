/** Client-side upload checks (kept apart from the yup schemas so the store does not pull yup in). */
import { UPLOAD_MAX_BYTES } from './limits';
import { textOf } from './i18n/appTexts';

export const IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;

/** Checked before an upload; the server checks the real bytes again. In the language the app shows. */
export function imageFileError(file: { size: number; type: string }): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return textOf('uploads.allowedFormats');
  if (file.size >= UPLOAD_MAX_BYTES) return textOf('uploads.fileTooBig');
  return null;
}
