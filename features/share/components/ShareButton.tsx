/**
 * Share a post or a profile (issue 68, item 27): the system's share sheet where the browser has one
 * (`navigator.share`: phones, some desktops), else the absolute address goes to the clipboard with a
 * "Link copied" toast. Imported by the feed card and the profile header only (page chunks), never by
 * the shell: the shared first load stays as it is.
 */
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { SvgIcon } from '../../../components/ui/SvgIcon';
import { useAppDispatch } from '../../../store/hooks';
import { appTheme } from '../../../themes';
import { showToast } from '../../toasts';

/** A box with an arrow out of it (the share symbol people know from phones). */
const SHARE_ICON = 'M4 12v7a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-7M16 6l-4-4-4 4M12 2v13';

const Button = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 36px;
  padding: 0 12px;
  border: none;
  border-radius: ${appTheme.radius.pill};
  background: transparent;
  color: ${appTheme.color.text};
  font: inherit;
  font-size: 14px;
  font-weight: 600;
  cursor: pointer;
  &:hover { background: ${appTheme.color.surfaceRaised}; }
`;

/** The page's absolute address for an app path (`/post/…`), as someone else would open it. */
export const absoluteUrl = (path: string): string => new URL(path, window.location.origin).href;

interface ShareButtonProps {
  /** An app path: `links.post(id)`, `links.profile(name)`. */
  path: string;
  /** What is shared, for the share sheet's title ("Post by ann"). */
  title: string;
  /** The button's name for screen readers ("Share post by ann"). */
  label: string;
  /** Words beside the icon; none: the icon alone (the name stays in `label`). */
  text?: string;
  className?: string;
}

/** Shares an app path: the share sheet where there is one, else the clipboard with a toast. */
export function useShareLink(): (path: string, title: string) => Promise<void> {
  const t = useTranslations('share');
  const dispatch = useAppDispatch();
  return async (path, title) => {
    const url = absoluteUrl(path);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // Closing the sheet is no failure; anything else (no permission) falls back to the clipboard.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      dispatch(showToast(t('copied'), 'success'));
    } catch {
      dispatch(showToast(t('failed'), 'error'));
    }
  };
}

export function ShareButton({ path, title, label, text, className }: ShareButtonProps) {
  const share = useShareLink();
  return (
    <Button type="button" className={className} aria-label={label} onClick={() => void share(path, title)}>
      <SvgIcon path={SHARE_ICON} size={18} />
      {text && <span aria-hidden="true">{text}</span>}
    </Button>
  );
}
