import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { useDismiss } from '../../hooks/useClickOutside';
import { appTheme } from '../../themes';

const Wrap = styled.div`
  position: relative;
`;

const List = styled.div`
  position: absolute;
  inset-inline-end: 0;
  top: calc(100% + 6px);
  z-index: 20;
  min-width: 180px;
  padding: 6px;
  border-radius: ${appTheme.radius.md};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  box-shadow: ${appTheme.shadow};
  button {
    display: block;
    width: 100%;
    padding: 9px 10px;
    border: none;
    border-radius: ${appTheme.radius.sm};
    background: none;
    color: ${appTheme.color.text};
    font: inherit;
    font-size: 14px;
    text-align: start;
    white-space: nowrap;
    cursor: pointer;
    &:hover, &:focus-visible { background: ${appTheme.color.surfaceRaised}; }
    &:disabled { color: ${appTheme.color.textMuted}; cursor: default; }
  }
`;

export interface MenuItem {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
}

interface MenuButtonProps {
  /** The button's name, e.g. "More actions for alice". */
  label: string;
  /** What the button shows (an icon): its name is `label`. */
  children: ReactNode;
  items: MenuItem[];
  className?: string;
}

/**
 * A button opening a menu (the WAI-ARIA menu button pattern): the arrow keys, Home and End move
 * between the items, Escape closes and gives focus back to the button, Tab or a click outside
 * closes. Choosing an item closes the menu with focus on the button first, so a dialog the item
 * opens gives focus back there.
 */
export function MenuButton({ label, children, items, className }: MenuButtonProps) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(wrap, open !== false, close);

  const entries = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:enabled') ?? [])];
  useEffect(() => {
    if (!open) return;
    const all = entries();
    (open === 'last' ? all.at(-1) : all[0])?.focus();
  }, [open]);

  const closeToButton = () => {
    button.current?.focus();
    setOpen(false);
  };

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowUp' ? 'last' : 'first');
    }
  };

  const onListKey = (event: KeyboardEvent) => {
    const all = entries();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      closeToButton();
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <Wrap ref={wrap}>
      <button
        ref={button}
        type="button"
        className={className}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(open ? false : 'first')}
        onKeyDown={onButtonKey}
      >
        {children}
      </button>
      {open && (
        <List ref={list} id={id} role="menu" aria-label={label} onKeyDown={onListKey}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              disabled={item.disabled}
              onClick={() => {
                closeToButton();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </List>
      )}
    </Wrap>
  );
}
