import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { ButtonLink } from '../ui/Button';
import { PageContainer } from '../ui/Panel';
import { Seo } from '../ui/Seo';
import { useAppSelector } from '../../store/hooks';
import { useHydrated } from '../../hooks/useHydrated';
import { selectSession } from '../../features/auth';
import { appTheme } from '../../themes';
import { links } from '../../lib/pages';

/** The layout of the pages that say what went wrong (not found, a server's failure). */
export const StatusWrap = styled.div`
  text-align: center;
  padding-top: 48px;
  h1 { font-size: 26px; margin: 8px 0; }
  p.lead { color: ${appTheme.color.textMuted}; margin: 0 0 24px; }
`;

const Big = styled.p`
  margin: 0;
  font-size: 72px;
  font-weight: 800;
  letter-spacing: -0.04em;
  color: ${appTheme.color.accent};
`;

/** "Page not found": pages/notFound.tsx in the reader's language, pages/404.tsx made at build time. */
export function NotFound() {
  const t = useTranslations('pages');
  const session = useAppSelector(selectSession);
  // Rendered without the session (made for a visitor): the render that hydrates it says the same,
  // and a signed-in viewer's link follows on the next render.
  const signedIn = useHydrated() && session === 'loggedIn';
  return (
    <>
      <Seo title={t('notFound.title')} description={t('notFound.description')} />
      <PageContainer>
        <StatusWrap>
          <Big aria-hidden="true">404</Big>
          <h1>{t('notFound.title')}</h1>
          <p className="lead">{t('notFound.lead')}</p>
          <ButtonLink href={signedIn ? links.home() : links.landing()}>
            {signedIn ? t('notFound.goHome') : t('notFound.goToStart')}
          </ButtonLink>
        </StatusWrap>
      </PageContainer>
    </>
  );
}
