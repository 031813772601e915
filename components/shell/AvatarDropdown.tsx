import { useCallback, useId, useRef, useState } from 'react';
import { useTranslations } from 'use-intl/react';
import styled from 'styled-components';
import { DROPDOWN_WIDTH_PX } from '../../lib/limits';
import type { User } from '../../lib/types';
import { useDismiss } from '../../hooks/useClickOutside';
import { Avatar } from '../ui/Avatar';
import { AccountLinks } from './AccountLinks';
import { appTheme } from '../../themes';

const Wrap = styled.div`
  position: relative;
`;

const Trigger = styled.button`
  display: inline-flex;
  padding: 2px;
  border: 2px solid transparent;
  border-radius: 50%;
  background: none;
  cursor: pointer;
  &[aria-expanded='true'] { border-color: ${appTheme.color.accent}; }
`;

const Menu = styled.div`
  position: absolute;
  inset-inline-end: 0;
  top: calc(100% + 8px);
  width: ${DROPDOWN_WIDTH_PX}px;
  padding: 6px;
  border-radius: ${appTheme.radius.md};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  box-shadow: ${appTheme.shadow};
  ul { list-style: none; margin: 0; padding: 0; }
`;

const Who = styled.div`
  padding: 8px 10px 10px;
  margin-bottom: 4px;
  border-bottom: 1px solid ${appTheme.color.border};
  strong { display: block; overflow: hidden; text-overflow: ellipsis; color: ${appTheme.color.text}; }
  span { display: block; font-size: 13px; color: ${appTheme.color.textMuted}; overflow: hidden; text-overflow: ellipsis; }
`;

interface AvatarDropdownProps {
  user: User;
  onLogout: () => void;
}

/** The desktop avatar menu: Profile, Settings, Logout. Escape or a click outside closes it. */
export function AvatarDropdown({ user, onLogout }: AvatarDropdownProps) {
  const t = useTranslations('shell');
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(wrap, open, close);

  return (
    <Wrap ref={wrap}>
      <Trigger aria-expanded={open} aria-controls={id} aria-label={t('accountMenu')} onClick={() => setOpen(!open)}>
        <Avatar src={user.avatar} name={user.username} size={32} />
      </Trigger>
      {open && (
        <Menu id={id}>
          <Who>
            <strong>{user.username}</strong>
            <span dir="ltr">{user.email}</span>
          </Who>
          <AccountLinks username={user.username} admin={user.role === 'admin'} onNavigate={close} onLogout={onLogout} />
        </Menu>
      )}
    </Wrap>
  );
}
