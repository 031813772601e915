import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { appTheme } from '../../themes';

interface AvatarProps {
  src: string | null | undefined;
  name: string;
  size?: number;
  /** Decorative next to the visible name; otherwise the image is named. */
  decorative?: boolean;
}

const Frame = styled.span<{ $size: number }>`
  flex: none;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  border-radius: 50%;
  overflow: hidden;
  background: ${appTheme.color.accentSoft};
  color: ${appTheme.color.text};
  font-weight: 700;
  font-size: ${({ $size }) => Math.max(11, Math.round($size * 0.42))}px;
  text-transform: uppercase;
  img { width: 100%; height: 100%; object-fit: cover; }
`;

export function Avatar({ src, name, size = 36, decorative = true }: AvatarProps) {
  const t = useTranslations('ui');
  const alt = decorative ? '' : t('avatarOf', { name });
  return (
    <Frame $size={size} aria-hidden={decorative && !src ? true : undefined}>
      {src ? (
        <img src={src} alt={alt} width={size} height={size} loading="lazy" decoding="async" />
      ) : (
        <span role={decorative ? undefined : 'img'} aria-label={decorative ? undefined : alt}>
          {name.slice(0, 1) || '?'}
        </span>
      )}
    </Frame>
  );
}
