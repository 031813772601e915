import { staticPageProps } from '../lib/pageProps';
import styled from 'styled-components';
import { ButtonLink } from '../components/ui/Button';
import { PageContainer } from '../components/ui/Panel';
import { Seo } from '../components/ui/Seo';
import { useAppSelector } from '../store/hooks';
import { useHydrated } from '../hooks/useHydrated';
import { selectSession } from '../features/auth';
import { appTheme } from '../themes';
import { links } from '../lib/pages';
import { useTranslations } from 'use-intl/react';

const Big = styled.p`
  margin: 0;
  font-size: 72px;
  font-weight: 800;
  letter-spacing: -0.04em;
  color: ${appTheme.color.accent};
`;

const Wrap = styled.div`
  text-align: center;
  padding-top: 48px;
  h1 { font-size: 26px; margin: 8px 0; }
  p.lead { color: ${appTheme.color.textMuted}; margin: 0 0 24px; }
`;

export default function NotFoundPage() {
  const t = useTranslations('pages');
  const session = useAppSelector(selectSession);
  // The 404 page is static HTML, made for a visitor: the render that hydrates it says the same,
  // and a signed-in viewer's link follows on the next render.
  const signedIn = useHydrated() && session === 'loggedIn';
  return (
    <>
      <Seo title={t('notFound.title')} description={t('notFound.description')} />
      <PageContainer>
        <Wrap>
          <Big aria-hidden="true">404</Big>
          <h1>{t('notFound.title')}</h1>
          <p className="lead">{t('notFound.lead')}</p>
          <ButtonLink href={signedIn ? links.home() : links.landing()}>
            {signedIn ? t('notFound.goHome') : t('notFound.goToStart')}
          </ButtonLink>
        </Wrap>
      </PageContainer>
    </>
  );
}

// Prerendered in English at build time (lib/pageProps.ts).
export const getStaticProps = staticPageProps;
