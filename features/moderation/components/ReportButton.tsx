import { lazy, Suspense, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslations } from 'use-intl/react';
import type { ReportTargetType } from '../../../lib/types';

// The dialog is its own chunk: every post card has the button, few viewers ever open it.
const ReportDialog = lazy(() => import('./ReportDialog'));

interface ReportButtonProps {
  targetType: ReportTargetType;
  targetId: string;
  /** What the button says to screen readers, e.g. "Report post by alice". */
  label: string;
  className?: string;
}

/** The report dialog (its own chunk), on the body: the menus holding a Report button style every button inside them. */
export function ReportDialogPortal(props: { targetType: ReportTargetType; targetId: string; onClose: () => void }) {
  return createPortal(
    <Suspense fallback={null}>
      <ReportDialog {...props} />
    </Suspense>,
    document.body,
  );
}

/** "Report", for every signed-in viewer but the author. */
export function ReportButton({ targetType, targetId, label, className }: ReportButtonProps) {
  const [open, setOpen] = useState(false);
  const t = useTranslations('admin');
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)} aria-label={label}>
        <span aria-hidden="true">{t('report.button')}</span>
      </button>
      {open && <ReportDialogPortal targetType={targetType} targetId={targetId} onClose={() => setOpen(false)} />}
    </>
  );
}
