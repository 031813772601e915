import { useId } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';

import { Button } from './Button';
import { Modal } from './Modal';
import { appTheme } from '../../themes';

const Body = styled.div`
  padding: 22px;
  h2 { font-size: 18px; margin-bottom: 8px; }
  p { margin: 0 0 20px; color: ${appTheme.color.textMuted}; }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
`;

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ title, message, confirmLabel, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const id = useId();
  const t = useTranslations('ui');
  return (
    <Modal onClose={onCancel} labelledBy={id} width={400}>
      <Body>
        <h2 id={id}>{title}</h2>
        <p>{message}</p>
        <Actions>
          <Button $variant="secondary" onClick={onCancel}>
            {t('cancel')}
          </Button>
          <Button $variant="danger" onClick={onConfirm} disabled={busy} aria-busy={busy}>
            {confirmLabel}
          </Button>
        </Actions>
      </Body>
    </Modal>
  );
}
