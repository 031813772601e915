import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { links } from '../../lib/pages';
import { openSearch } from '../../lib/openSearch';
import { Button, ButtonLink } from './Button';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 10px;
  margin-top: 6px;
`;

/**
 * The way on from a page whose post or person is not there (issue 68, item 12): Home, and the
 * navbar's search (opened and focused, on a phone too).
 */
export function WayForward() {
  const t = useTranslations('ui');
  return (
    <Row>
      <ButtonLink href={links.home()} $size="sm">
        {t('goHome')}
      </ButtonLink>
      <Button $variant="secondary" $size="sm" onClick={openSearch}>
        {t('searchPostsAndPeople')}
      </Button>
    </Row>
  );
}
