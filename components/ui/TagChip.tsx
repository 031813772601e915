import { useTranslations } from 'use-intl/react';
import styled from 'styled-components';
import { links } from '../../lib/pages';
import { appTheme } from '../../themes';
import { AppLink } from './AppLink';
import { Icon } from './Icon';

// max-width and overflow-wrap: a long tag (a hand-typed URL's) breaks inside its row, never widens the page.
const chip = `
  display: inline-flex;
  align-items: center;
  max-width: 100%;
  overflow-wrap: anywhere;
  gap: 4px;
  padding: 3px 10px;
  border-radius: ${appTheme.radius.pill};
  font-size: 13px;
  font-weight: 600;
  text-decoration: none;
`;

const Chip = styled.span`
  ${chip}
  padding-inline-end: 4px;
  background: ${appTheme.color.accentSoft};
  color: ${appTheme.color.text};
  button {
    display: inline-flex;
    padding: 2px;
    border: none;
    border-radius: 50%;
    background: transparent;
    color: inherit;
    cursor: pointer;
    &:hover { background: ${appTheme.color.surfaceRaised}; }
  }
`;

const ChipLink = styled(AppLink)`
  ${chip}
  background: ${appTheme.color.accentSoft};
  color: ${appTheme.color.text};
  &:hover { text-decoration: underline; }
`;

/** A tag with a remove button (forms) or a link to its posts (cards). */
export function TagChip({ tag, onRemove }: { tag: string; onRemove?: () => void }) {
  const t = useTranslations('ui');
  // A tag keeps its own direction ("#sea" reads so in an Arabic page, not "sea#").
  if (!onRemove)
    return (
      <ChipLink href={links.tagged([tag])}>
        <bdi>#{tag}</bdi>
      </ChipLink>
    );
  return (
    <Chip>
      <bdi>#{tag}</bdi>
      <button type="button" onClick={onRemove} aria-label={t('removeTag', { tag })}>
        <Icon name="close" size={14} />
      </button>
    </Chip>
  );
}
