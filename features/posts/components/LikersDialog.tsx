/**
 * Who likes a post (issue 68, item 29): `GET /api/posts/{id}/likers`, newest like first, paged by
 * the server's cursor, each person with Follow / Following. Its own chunk: the likes count loads it
 * when pressed (PostCard), so neither the shared first load nor the pages carry it.
 */
import { useCallback, useId } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { Button } from '../../../components/ui/Button';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { Skeleton } from '../../../components/ui/Skeleton';
import { Spinner } from '../../../components/ui/Spinner';
import { useCursorList } from '../../../hooks/useCursorList';
import { useInfiniteScroll } from '../../../hooks/useInfiniteScroll';
import { apiUrls } from '../../../lib/apiUrls';
import type { PersonResult } from '../../../lib/types';
import { getPage } from '../../../services/apiClient';
import { appTheme } from '../../../themes';
import { PeopleList } from '../../people';

const Head = styled.div`
  position: sticky;
  top: 0;
  z-index: 1;
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding-block: 12px;
  padding-inline: 20px 12px;
  background: ${appTheme.color.surface};
  border-bottom: 1px solid ${appTheme.color.border};
  h2 { margin: 0; font-size: 18px; }
  button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 40px;
    height: 40px;
    border: none;
    border-radius: 50%;
    background: transparent;
    color: ${appTheme.color.text};
    cursor: pointer;
    &:hover { background: ${appTheme.color.surfaceRaised}; }
  }
`;

const Content = styled.div`
  padding: 16px;
  min-height: 200px;
`;

const More = styled.div`
  display: flex;
  justify-content: center;
  padding: 12px 0 0;
`;

const pageOf = (url: string) => getPage<PersonResult>(url);

export default function LikersDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const t = useTranslations('posts');
  const id = useId();
  const first = useCallback(() => getPage<PersonResult>(`${apiUrls.post(postId)}/likers`), [postId]);
  const { items, loading, error, hasMore, loadMore } = useCursorList(first, pageOf);
  const sentinel = useInfiniteScroll(loadMore, hasMore && !loading);

  let body;
  if (loading && items.length === 0) {
    body = (
      <div aria-hidden="true" style={{ display: 'grid', gap: 8 }}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} $h="66px" />
        ))}
      </div>
    );
  } else if (error && items.length === 0) {
    body = <EmptyState role="alert">{error}</EmptyState>;
  } else if (items.length === 0) {
    body = (
      <EmptyState>
        <p>{t('likers.none')}</p>
      </EmptyState>
    );
  } else {
    body = (
      <>
        <PeopleList people={items} columns={false} onOpen={onClose} />
        <More ref={sentinel}>
          {loading ? (
            <span role="status">
              <Spinner /> <span className="visually-hidden">{t('likers.loadingMore')}</span>
            </span>
          ) : (
            hasMore && (
              <Button $variant="secondary" $size="sm" onClick={loadMore}>
                {t('loadMore')}
              </Button>
            )
          )}
        </More>
      </>
    );
  }

  return (
    <Modal onClose={onClose} labelledBy={`${id}-title`} width={440}>
      <Head>
        <h2 id={`${id}-title`}>{t('likers.title')}</h2>
        <button type="button" onClick={onClose} aria-label={t('close')}>
          <Icon name="close" size={20} />
        </button>
      </Head>
      <Content>{body}</Content>
    </Modal>
  );
}
