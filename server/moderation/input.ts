/** What a report and an admin's action send, checked: the target type, the reason, the action, the note. */
import { REPORT_NOTE_MAX } from '../../lib/limits';
import type { ReportAction, ReportReason, ReportTargetType } from '../../lib/types';
import { InvalidError } from '../domain/errors';

export const REPORT_TARGET_TYPES: readonly ReportTargetType[] = ['post', 'comment', 'user'];
export const REPORT_REASONS: readonly ReportReason[] = ['spam', 'abuse', 'illegal', 'other'];
export const REPORT_ACTIONS: readonly ReportAction[] = ['dismiss', 'removeContent', 'suspendUser'];

export interface ReportInput {
  targetType?: unknown;
  targetId?: unknown;
  reason?: unknown;
  note?: unknown;
}

export function readNote(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') throw new InvalidError('The note must be text', 'InvalidNote');
  const note = raw.trim();
  if (note.length > REPORT_NOTE_MAX)
    throw new InvalidError(`The note must be at most ${REPORT_NOTE_MAX} characters`, 'InvalidNote');
  return note;
}

export function pick<T extends string>(raw: unknown, allowed: readonly T[], what: string, code: string): T {
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw))
    throw new InvalidError(`${what} must be one of ${allowed.join(', ')}`, code);
  return raw as T;
}
