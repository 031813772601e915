import { useTranslations } from 'use-intl/react';
import type { ReportReason } from '../../../lib/types';

/** The reasons as the reporter reads them; the admin queue shows the same words. */
export function useReasonLabels(): Record<ReportReason, string> {
  const t = useTranslations('admin');
  return {
    spam: t('reasons.spam'),
    abuse: t('reasons.abuse'),
    illegal: t('reasons.illegal'),
    other: t('reasons.other'),
  };
}
