/**
 * Mastodon's CSV lists (its `Export` and `Form::Import`): follows as `Account address,Show
 * boosts,Notify on new posts,Languages`, mutes as `Account address,Hide notifications`, blocks as
 * one address a line with no header. Reading accepts any of them with or without the header line,
 * as Mastodon does: a file whose first cell is not `Account address` is one address a line.
 */
import { ACCOUNT_LIST_ROWS_MAX } from '../../lib/limits';
import { InvalidError } from '../domain/errors';

export type ListKind = 'follows' | 'blocks' | 'mutes';

export const ADDRESS_HEADER = 'Account address';
const FOLLOWS_HEADER = [ADDRESS_HEADER, 'Show boosts', 'Notify on new posts', 'Languages'];
const MUTES_HEADER = [ADDRESS_HEADER, 'Hide notifications'];
/** The first cells of Mastodon's other lists: such a file is not a list of accounts. */
const OTHER_LISTS: Record<string, string> = {
  '#domain': 'blocked domains',
  '#uri': 'saved posts (bookmarks)',
  'List name': 'lists',
};

/** What Mastodon names each export: its import guesses the list from the name. */
export const EXPORT_FILE_NAMES: Record<ListKind, string> = {
  follows: 'following_accounts.csv',
  blocks: 'blocked_accounts.csv',
  mutes: 'muted_accounts.csv',
};

const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
const line = (cells: string[]) => `${cells.map(quoted).join(',')}\n`;

/**
 * The list as Mastodon writes it. Posts keeps no per-follow boosts, notifications or languages:
 * a follow is written as Mastodon's default (boosts shown, no notifications); a mute here always
 * hides the person's notifications.
 */
export function writeList(kind: ListKind, addresses: readonly string[]): string {
  if (kind === 'blocks') return addresses.map((a) => line([a])).join('');
  if (kind === 'mutes') return line(MUTES_HEADER) + addresses.map((a) => line([a, 'true'])).join('');
  return line(FOLLOWS_HEADER) + addresses.map((a) => line([a, 'true', 'false', ''])).join('');
}

const notCsv = (why: string) => new InvalidError(`This file is not a CSV list: ${why}`, 'NotCsv');

/** RFC 4180 records: quoted cells may hold commas, quotes ("") and line breaks. */
function records(text: string): string[][] {
  const out: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let i = 0;
  let quotedCell = false;
  const endCell = () => {
    cells.push(cell);
    cell = '';
    quotedCell = false;
  };
  const endRecord = () => {
    endCell();
    // A blank line is skipped, as Mastodon's reader does.
    if (!(cells.length === 1 && cells[0].trim() === '')) out.push(cells);
    cells = [];
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && cell === '' && !quotedCell) {
      quotedCell = true;
      i += 1;
      for (;;) {
        if (i >= text.length) throw notCsv('a quoted cell never ends');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        cell += text[i];
        i += 1;
      }
      if (i < text.length && !',\r\n'.includes(text[i])) throw notCsv('text follows a quoted cell');
      continue;
    }
    if (c === ',') endCell();
    else if (c === '\n' || c === '\r') {
      endRecord();
      if (c === '\r' && text[i + 1] === '\n') i += 1;
    } else if (c === '"') throw notCsv('a quote inside an unquoted cell');
    else cell += c;
    i += 1;
    // Past the limit there is no point reading on: the answer is the same.
    if (out.length > ACCOUNT_LIST_ROWS_MAX + 1) break;
  }
  if (cell !== '' || cells.length > 0 || quotedCell) endRecord();
  return out;
}

export interface ListRow {
  /** The line in the file, the header (if any) not counted. */
  line: number;
  /** As written, without a leading `@`. */
  address: string;
}

/** The account addresses of an uploaded list, or a refusal (400) with a code saying what is wrong. */
export function readList(kind: ListKind, bytes: Buffer): ListRow[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notCsv('it is not UTF-8 text');
  }
  if (text.includes('\0')) throw notCsv('it holds binary data');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const rows = records(text);
  if (rows.length === 0) throw new InvalidError('The file holds no accounts', 'EmptyList');
  const first = rows[0].map((c) => c.trim());
  const other = OTHER_LISTS[first[0]];
  if (other) throw new InvalidError(`This file is a Mastodon list of ${other}, not of accounts`, 'WrongHeader');
  let body = rows;
  if (first[0] === ADDRESS_HEADER) {
    const guessed = first.includes('Hide notifications')
      ? 'mutes'
      : first.some((h) => FOLLOWS_HEADER.slice(1).includes(h))
        ? 'follows'
        : null;
    if (guessed && guessed !== kind)
      throw new InvalidError(`This file is a list of ${guessed}, not of ${kind}: choose "${guessed}"`, 'WrongListType');
    body = rows.slice(1);
  } else if (!looksLikeAddress(first[0]) || (first.length > 1 && !first[0].includes('@'))) {
    // Not an address, or a bare word heading other columns: a header of some other list.
    throw new InvalidError(
      `The first line must be the header "${kind === 'follows' ? FOLLOWS_HEADER.join(',') : kind === 'mutes' ? MUTES_HEADER.join(',') : ADDRESS_HEADER}" or an account address such as alice@example.com`,
      'WrongHeader',
    );
  }
  if (body.length > ACCOUNT_LIST_ROWS_MAX)
    throw new InvalidError(`A list may hold at most ${ACCOUNT_LIST_ROWS_MAX} accounts`, 'TooManyRows');
  if (body.length === 0) throw new InvalidError('The file holds no accounts', 'EmptyList');
  // Bounded to the column: a longer one is no address anyone has, and fails as not found.
  return body.map((cells, index) => ({ line: index + 1, address: cells[0].trim().replace(/^@/, '').slice(0, 320) }));
}

/** `name` or `name@host`: no spaces, at most one `@` after the name. */
export const looksLikeAddress = (value: string) => /^@?[^\s@,]+(@[^\s@,/]+)?$/u.test(value.trim());
