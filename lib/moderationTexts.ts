/**
 * Fixed texts of reports and the admin page (issues 23, 35): the reasons as the reporter reads them
 * (the admin queue shows the same words), and what each admin action says once done. Apart from
 * TEXTS so that the shared first load does not carry them.
 */
import type { ReportReason } from './types';

/** In the order the report dialog offers them. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  abuse: 'Abuse or harassment',
  illegal: 'Illegal content',
  other: 'Something else',
};

export const ADMIN_TEXTS = {
  reportDismissed: 'Report dismissed',
  postRemoved: 'Post removed',
  commentRemoved: 'Comment removed',
  userSuspended: (username: string) => `${username} is suspended`,
  userUnsuspended: (username: string) => `${username} is no longer suspended`,
  domainBlocked: (domain: string, severity: string) =>
    `${domain} is ${severity === 'suspend' ? 'suspended' : 'silenced'}`,
  domainUnblocked: (domain: string) => `${domain} is no longer blocked`,
} as const;
