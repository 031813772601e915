import styled, { keyframes } from 'styled-components';
import { useTranslations } from 'use-intl/react';

import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectToasts, toastRemoved, type ToastKind } from '../state/toastsSlice';
import { CLOSE_ICON_PATH, SvgIcon } from '../../../components/ui/SvgIcon';
import { appTheme } from '../../../themes';

const slideIn = keyframes`
  from { transform: translateY(12px); opacity: 0; }
  to { transform: none; opacity: 1; }
`;

const Region = styled.div`
  position: fixed;
  inset-inline-end: 16px;
  bottom: 16px;
  inset-inline-start: 16px;
  z-index: 200;
  display: flex;
  flex-direction: column;
  align-items: flex-end;
  gap: 8px;
  pointer-events: none;
`;

const ToastBox = styled.div<{ $kind: ToastKind }>`
  pointer-events: auto;
  display: flex;
  align-items: center;
  gap: 10px;
  max-width: 360px;
  padding-block: 12px;
  padding-inline: 14px 12px;
  border-radius: ${appTheme.radius.md};
  background: ${appTheme.color.surfaceRaised};
  color: ${appTheme.color.text};
  border: 1px solid ${appTheme.color.border};
  border-inline-start: 4px solid
    ${({ $kind, theme }) => ($kind === 'error' ? theme.color.danger : $kind === 'success' ? theme.color.success : theme.color.accent)};
  box-shadow: ${appTheme.shadow};
  animation: ${slideIn} 0.18s ease-out;
  button {
    display: inline-flex;
    padding: 4px;
    border: none;
    border-radius: 6px;
    background: transparent;
    color: ${appTheme.color.textMuted};
    cursor: pointer;
  }
`;

/** Toasts at the bottom right; each removes itself after its time (see `showToast`). */
export function Toasts() {
  const toasts = useAppSelector(selectToasts);
  const dispatch = useAppDispatch();
  const t = useTranslations('ui');
  return (
    <Region aria-live="polite" aria-relevant="additions">
      {toasts.map((toast) => (
        <ToastBox key={toast.id} $kind={toast.kind} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span>{toast.message}</span>
          <button type="button" aria-label={t('dismissToast')} onClick={() => dispatch(toastRemoved(toast.id))}>
            <SvgIcon path={CLOSE_ICON_PATH} size={16} />
          </button>
        </ToastBox>
      ))}
    </Region>
  );
}
