import { useTranslations } from 'use-intl/react';
import { Button } from '../components/ui/Button';
import { PageContainer } from '../components/ui/Panel';
import { Seo } from '../components/ui/Seo';
import { serverErrorPageProps } from '../lib/pageProps';
import { StatusWrap } from '../components/shell/StatusPage';

/**
 * A server's failure: made once at build time, so that even then the shell has its texts; shown in
 * the reader's language by its script (lib/i18n/serverErrorLanguage.ts).
 */
export default function ServerErrorPage() {
  const t = useTranslations('pages');
  return (
    <>
      <Seo title={t('serverError.title')} description={t('serverError.description')} />
      <PageContainer>
        <StatusWrap>
          <h1>{t('serverError.title')}</h1>
          <p className="lead">{t('serverError.lead')}</p>
          <Button onClick={() => window.location.reload()}>{t('serverError.tryAgain')}</Button>
        </StatusWrap>
      </PageContainer>
    </>
  );
}

// Prerendered at build time (lib/pageProps.ts): English, with its first texts in the other languages.
export const getStaticProps = serverErrorPageProps;
