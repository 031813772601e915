import Head from 'next/head';

interface SeoProps {
  title: string;
  description: string;
}

/** The page's title and meta description. */
export function Seo({ title, description }: SeoProps) {
  const fullTitle = title === 'Posts' ? title : `${title} · Posts`;
  return (
    <Head>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
    </Head>
  );
}
