import { useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { media } from '../../styles/breakpoints';
import { useFocusTrap } from '../../hooks/useFocusTrap';
import { useScrollLock } from '../../hooks/useScrollLock';
import { appTheme } from '../../themes';

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 100;
  display: flex;
  align-items: flex-end;
  justify-content: center;
  background: ${appTheme.color.overlay};
  ${media.sm} { align-items: center; padding: 24px 16px; }
`;

const Dialog = styled.div<{ $width: number }>`
  position: relative;
  width: 100%;
  max-width: ${({ $width }) => $width}px;
  max-height: 92vh;
  overflow-y: auto;
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  border-radius: ${appTheme.radius.lg} ${appTheme.radius.lg} 0 0;
  box-shadow: ${appTheme.shadow};
  ${media.sm} { border-radius: ${appTheme.radius.lg}; }
  &:focus { outline: none; }
`;

interface ModalProps {
  onClose: () => void;
  /** Id of the element that names the dialog. */
  labelledBy: string;
  width?: number;
  children: ReactNode;
}

/**
 * A modal dialog: closes on Escape or a click on the backdrop, keeps keyboard focus inside,
 * locks the page behind it and gives focus back to where it was on close.
 */
export function Modal({ onClose, labelledBy, width = 480, children }: ModalProps) {
  const dialog = useRef<HTMLDivElement>(null);
  useScrollLock(true);
  useFocusTrap(dialog, onClose);

  return (
    <Backdrop
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <Dialog ref={dialog} role="dialog" aria-modal="true" aria-labelledby={labelledBy} tabIndex={-1} $width={width}>
        {children}
      </Dialog>
    </Backdrop>
  );
}
