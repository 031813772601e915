/** Mastodon CSV lists (issue 76): the exports, and the imports with their progress; aliases and moves. */
import type { AccountAlias, ListImport, MovedTo } from '../../../lib/types';
import { apiClient, errorMessage } from '../../../services/apiClient';
import { blobErrorMessage } from '../../../services/blobErrors';

export type ListKind = ListImport['type'];
export type ListMode = ListImport['mode'];

const exportUrl = (kind: ListKind) => `/api/users/me/export/${kind}.csv`;
const IMPORTS_URL = '/api/users/me/list-imports';
const ALIASES_URL = '/api/users/me/aliases';

export const movingApi = {
  /** The list as a file and the server's name for it (read through the client: a lapsed session is renewed first). */
  async exportList(kind: ListKind): Promise<{ csv: Blob; filename: string }> {
    try {
      const response = await apiClient.get<Blob>(exportUrl(kind), { responseType: 'blob' });
      const disposition = String(response.headers['content-disposition'] ?? '');
      return { csv: response.data, filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${kind}.csv` };
    } catch (error) {
      throw new Error(await blobErrorMessage(error), { cause: error });
    }
  },

  /** Sends the file; the answer is the import as far as the upload took it. Throws the server's message. */
  async startImport(kind: ListKind, mode: ListMode, file: File): Promise<ListImport> {
    const form = new FormData();
    form.append('type', kind);
    form.append('mode', mode);
    form.append('file', file);
    try {
      return (await apiClient.post<{ import: ListImport }>(IMPORTS_URL, form)).data.import;
    } catch (error) {
      throw new Error(errorMessage(error), { cause: error });
    }
  },

  async progress(id: string): Promise<ListImport> {
    return (await apiClient.get<{ import: ListImport }>(`${IMPORTS_URL}/${encodeURIComponent(id)}`)).data.import;
  },

  /** The last imports, newest first. */
  async latest(): Promise<ListImport[]> {
    return (await apiClient.get<{ imports: ListImport[] }>(IMPORTS_URL)).data.imports;
  },

  /** The account's aliases (actor addresses): the accounts that may move here. */
  async aliases(): Promise<AccountAlias[]> {
    return (await apiClient.get<{ aliases: AccountAlias[] }>(ALIASES_URL)).data.aliases;
  },

  /** Names another account (name@server or its address) as this one's; the aliases now. Throws the server's message. */
  async addAlias(address: string): Promise<AccountAlias[]> {
    try {
      return (await apiClient.post<{ aliases: AccountAlias[] }>(ALIASES_URL, { address })).data.aliases;
    } catch (error) {
      throw new Error(errorMessage(error), { cause: error });
    }
  },

  async removeAlias(uri: string): Promise<AccountAlias[]> {
    try {
      return (await apiClient.delete<{ aliases: AccountAlias[] }>(ALIASES_URL, { params: { uri } })).data.aliases;
    } catch (error) {
      throw new Error(errorMessage(error), { cause: error });
    }
  },

  /** Moves this account to the one at `address`, which must name it among its aliases. Throws the server's message. */
  async moveTo(address: string): Promise<MovedTo> {
    try {
      return (await apiClient.post<{ movedTo: MovedTo }>('/api/users/me/move', { address })).data.movedTo;
    } catch (error) {
      throw new Error(errorMessage(error), { cause: error });
    }
  },
};
