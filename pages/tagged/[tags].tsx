import { useRouter } from 'next/router';
import { useTranslations } from 'use-intl/react';

import { PageLoading } from '../../components/shell/PageLoading';
import { TaggedPosts } from '../../features/posts';
import { Seo } from '../../components/ui/Seo';
import type { PrivatePageProps } from '../../lib/firstLoad';
import { privatePageProps } from '../../lib/pageProps';
import { tagList } from '../../lib/tags';

/** Whether the viewer follows the page's one tag, as the server's first load said (issue 73). */
function followingOf(firstLoad: PrivatePageProps['firstLoad'], tags: string[]): boolean | undefined {
  const page = firstLoad?.page;
  return page?.kind === 'tagged' && page.tags.join(',') === tags.join(',') ? page.following : undefined;
}

export default function TaggedPage({ firstLoad }: PrivatePageProps) {
  const router = useRouter();
  const t = useTranslations('pages');
  const raw = typeof router.query.tags === 'string' ? router.query.tags : null;
  // As its first read (lib/pages.ts) reads them.
  const tags = raw ? tagList(raw) : [];
  return (
    <>
      <Seo
        title={tags.length ? tags.map((tag) => `#${tag}`).join(', ') : t('tagged.title')}
        description={tags.length ? t('tagged.descriptionOf', { tags: tags.join(', ') }) : t('tagged.description')}
      />
      {router.isReady ? <TaggedPosts tags={tags} following={followingOf(firstLoad, tags)} /> : <PageLoading />}
    </>
  );
}

// Rendered on the server with the viewer's first data (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;
