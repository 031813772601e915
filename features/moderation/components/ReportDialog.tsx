import { useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { fieldSurface } from '../../../components/ui/TextField';
import { REPORT_NOTE_MAX } from '../../../lib/limits';
import { useReasonLabels } from '../hooks/useReasonLabels';
import type { ReportReason, ReportTargetType } from '../../../lib/types';
import { errorMessage } from '../../../services/apiClient';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { appTheme } from '../../../themes';
import { moderationApi } from '../state/moderationApi';

const Body = styled.form`
  display: grid;
  gap: 14px;
  padding: 22px;
  h2 { font-size: 18px; margin: 0; }
  fieldset { border: none; margin: 0; padding: 0; display: grid; gap: 8px; }
  legend { font-weight: 600; margin-bottom: 6px; }
  label { display: flex; gap: 8px; align-items: center; }
  textarea {
    width: 100%;
    min-height: 80px;
    padding: 10px 12px;
    ${fieldSurface}
    resize: vertical;
  }
  .note-label { font-weight: 600; }
  .done { margin: 0; }
  .error { margin: 0; color: ${appTheme.color.danger}; }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
`;

/** In the order the dialog offers them. */
const REASONS: readonly ReportReason[] = ['spam', 'abuse', 'illegal', 'other'];

interface ReportDialogProps {
  targetType: ReportTargetType;
  targetId: string;
  onClose: () => void;
}

/** The reasons and an optional note; the report goes to the instance's admins. */
export default function ReportDialog({ targetType, targetId, onClose }: ReportDialogProps) {
  const id = useId();
  const t = useTranslations('admin');
  const reasonLabels = useReasonLabels();
  const titles: Record<ReportTargetType, string> = {
    post: t('report.titlePost'),
    comment: t('report.titleComment'),
    user: t('report.titleUser'),
  };
  // No reason is chosen for the reporter (issue 68, item 22): they pick one, and Send says so until then.
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [missingReason, setMissingReason] = useState(false);
  const firstReason = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState('');
  const [state, setState] = useState<{ status: 'idle' | 'sending' | 'sent' } | { status: 'failed'; message: string }>({
    status: 'idle',
  });
  const send = async () => {
    if (!reason) {
      setMissingReason(true);
      firstReason.current?.focus();
      return;
    }
    setState({ status: 'sending' });
    try {
      await moderationApi.report({ targetType, targetId, reason, note: note.trim() });
      setState({ status: 'sent' });
    } catch (error) {
      setState({ status: 'failed', message: errorMessage(error) });
    }
  };
  return (
    <Modal onClose={onClose} labelledBy={`${id}-title`} width={440}>
      <Body
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <h2 id={`${id}-title`}>{titles[targetType]}</h2>
        {state.status === 'sent' ? (
          <>
            <p className="done" role="status">
              {t('report.thanks')}
            </p>
            <Actions>
              <Button onClick={onClose}>{t('report.close')}</Button>
            </Actions>
          </>
        ) : (
          <>
            <fieldset
              role="radiogroup"
              aria-required="true"
              aria-invalid={missingReason || undefined}
              aria-describedby={missingReason ? `${id}-reason-error` : undefined}
            >
              <legend>{t('report.why')}</legend>
              {REASONS.map((value, i) => (
                <label key={value}>
                  <input
                    ref={i === 0 ? firstReason : undefined}
                    type="radio"
                    name="reason"
                    value={value}
                    checked={reason === value}
                    onChange={() => {
                      setReason(value);
                      setMissingReason(false);
                    }}
                  />
                  {reasonLabels[value]}
                </label>
              ))}
              {missingReason && (
                <p className="error" id={`${id}-reason-error`} role="alert">
                  {t('report.reasonRequired')}
                </p>
              )}
            </fieldset>
            <label className="note-label" htmlFor={`${id}-note`}>
              {t('report.note')}
            </label>
            <textarea
              id={`${id}-note`}
              value={note}
              maxLength={REPORT_NOTE_MAX}
              onChange={(event) => setNote(event.target.value)}
            />
            {state.status === 'failed' && (
              <p className="error" role="alert">
                {state.message}
              </p>
            )}
            <Actions>
              <Button $variant="secondary" onClick={onClose}>
                {t('report.cancel')}
              </Button>
              <Button type="submit" $variant="danger" disabled={state.status === 'sending'}>
                {t('report.send')}
              </Button>
            </Actions>
          </>
        )}
      </Body>
    </Modal>
  );
}
