import type { CSSProperties } from 'react';
import styled from 'styled-components';
import { TagChip } from './TagChip';

const List = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  margin: 0;
  padding: 0;
  list-style: none;
  li { min-width: 0; max-width: 100%; }
`;

interface TagListProps {
  tags: readonly string[];
  /** The list's accessible name. */
  label?: string;
  /** With it each chip has a remove button (forms, the search); without it each links to its posts. */
  onRemove?: (tag: string) => void;
  style?: CSSProperties;
}

/** Tags as a row of chips: a post's, the tag page's, the post form's and the search's. */
export function TagList({ tags, label, onRemove, style }: TagListProps) {
  return (
    <List aria-label={label} style={style}>
      {tags.map((tag) => (
        <li key={tag}>
          <TagChip tag={tag} onRemove={onRemove && (() => onRemove(tag))} />
        </li>
      ))}
    </List>
  );
}
