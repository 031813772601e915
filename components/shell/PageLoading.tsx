import { useTranslations } from 'use-intl/react';
import styled from 'styled-components';
import { Spinner } from '../ui/Spinner';
import { appTheme } from '../../themes';

const Wrap = styled.div`
  display: flex;
  justify-content: center;
  padding: 80px 16px;
  color: ${appTheme.color.textMuted};
`;

/** Shown while the session is looked up, before a private page may render. */
export function PageLoading() {
  const t = useTranslations('shell');
  return (
    <Wrap role="status">
      <Spinner $size={28} />
      <span className="visually-hidden">{t('loading')}</span>
    </Wrap>
  );
}
