import type { Language } from '../../../lib/i18n/languages';
import { apiClient } from '../../../services/apiClient';

/** The account's language (`users.language`), which the server renders its pages and mails in. */
export const languageApi = {
  save: (language: Language) => apiClient.patch('/api/users/updateProfile', { language }),
};
