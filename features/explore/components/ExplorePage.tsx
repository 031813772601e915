/**
 * Explore (issue 73): trending tags, people to follow and trending posts. A page the server
 * renders with `GET /api/explore` in its HTML (lib/pageReads.ts): the posts go through the store
 * as a list (`{ kind: 'explore' }`: cards, likes, saves and blurred sensitive photos as in every
 * feed, a page at a time from `/api/explore/posts`), the tags and people come in the page's props. Opened by a client-side navigation, it
 * reads them itself.
 */
import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { Icon } from '../../../components/ui/Icon';
import { PageContainer, PageLead, PageTitle } from '../../../components/ui/Panel';
import { EmptyState } from '../../../components/ui/EmptyState';
import { AppLink } from '../../../components/ui/AppLink';
import { links } from '../../../lib/pages';
import type { Explore, PersonResult, TrendingTag } from '../../../lib/types';
import { appTheme } from '../../../themes';
import { PeopleList } from '../../people';
import { PostList } from '../../posts';
import { exploreApi } from '../state/exploreApi';

const Section = styled.section`
  margin-bottom: 32px;
  h2 { font-size: 18px; margin: 0 0 12px; }
`;

const Tags = styled.ol`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
  a {
    display: inline-flex;
    flex-direction: column;
    max-width: 100%;
    padding: 8px 14px;
    border-radius: ${appTheme.radius.md};
    background: ${appTheme.color.accentSoft};
    color: ${appTheme.color.text};
    text-decoration: none;
    overflow-wrap: anywhere;
    &:hover { text-decoration: underline; }
  }
  strong { font-size: 15px; }
  span { font-size: 13px; color: ${appTheme.color.textMuted}; }
`;

function TrendingTags({ tags }: { tags: TrendingTag[] }) {
  const t = useTranslations('explore');
  if (tags.length === 0)
    return (
      <EmptyState>
        <Icon name="hash" size={32} />
        <h2>{t('noTags.title')}</h2>
        <p>{t('noTags.text')}</p>
      </EmptyState>
    );
  return (
    <Tags>
      {tags.map((trending) => (
        <li key={trending.tag}>
          <AppLink href={links.tagged([trending.tag])}>
            <strong>
              <bdi>#{trending.tag}</bdi>
            </strong>
            <span>{t('tagStats', { people: trending.people, posts: trending.posts })}</span>
          </AppLink>
        </li>
      ))}
    </Tags>
  );
}

function People({ people }: { people: PersonResult[] }) {
  const t = useTranslations('explore');
  if (people.length === 0)
    return (
      <EmptyState>
        <Icon name="users" size={32} />
        <h2>{t('noPeople.title')}</h2>
        <p>{t('noPeople.text')}</p>
      </EmptyState>
    );
  return <PeopleList people={people} />;
}

export function ExplorePage({ initial }: { initial: Explore | null }) {
  const t = useTranslations('explore');
  const [found, setFound] = useState<Pick<Explore, 'tags' | 'people'> | null>(initial);
  const [failed, setFailed] = useState(false);
  // Only when the server did not render the page with them (a client-side navigation).
  useEffect(() => {
    if (initial) return;
    let live = true;
    exploreApi.get().then(
      (data) => live && setFound(data),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [initial]);

  return (
    <PageContainer $width={620}>
      <PageTitle>{t('title')}</PageTitle>
      <PageLead>{t('lead')}</PageLead>
      <Section aria-labelledby="explore-tags">
        <h2 id="explore-tags">{t('tags')}</h2>
        {found ? <TrendingTags tags={found.tags} /> : failed ? <p>{t('tagsFailed')}</p> : null}
      </Section>
      <Section aria-labelledby="explore-people">
        <h2 id="explore-people">{t('people')}</h2>
        {found ? <People people={found.people} /> : failed ? <p>{t('peopleFailed')}</p> : null}
      </Section>
      <Section aria-labelledby="explore-posts">
        <h2 id="explore-posts">{t('posts')}</h2>
        <PostList
          source={{ kind: 'explore' }}
          empty={
            <EmptyState>
              <Icon name="globe" size={32} />
              <h2>{t('noPosts.title')}</h2>
              <p>{t('noPosts.text')}</p>
            </EmptyState>
          }
        />
      </Section>
    </PageContainer>
  );
}
