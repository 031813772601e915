/**
 * The `@mention` list of a textarea (issue 68, item 31): loaded on the field's first `@`, it makes
 * the textarea an ARIA combobox (list autocomplete) and listens on it natively, so the host form
 * only renders this beside its field. Its key handler runs on the textarea itself, before React's
 * (delegated at the root) and the dialog's focus trap (on the document): while the list is open,
 * Enter and Tab pick, Escape closes the list only.
 */
import { useEffect, useEffectEvent, useId, useRef, useState, type RefObject } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import type { PersonResult } from '../../../lib/types';
import { apiClient } from '../../../services/apiClient';
import { Avatar } from '../../../components/ui/Avatar';
import { appTheme } from '../../../themes';
import { type MentionQuery, insertMention, mentionQueryAt } from '../lib/mentionQuery';

/** Quiet time after a keystroke before asking the server. */
const DEBOUNCE_MS = 150;
const SUGGESTIONS = 8;

const List = styled.ul`
  position: absolute;
  z-index: 20;
  top: calc(100% + 4px);
  inset-inline-start: 0;
  inset-inline-end: 0;
  max-height: min(320px, 50vh);
  overflow-y: auto;
  margin: 0;
  padding: 4px;
  list-style: none;
  border-radius: 12px;
  border: 1px solid ${appTheme.color.border};
  background: ${appTheme.color.surfaceRaised};
  box-shadow: ${appTheme.shadow};
`;

const Option = styled.li`
  display: flex;
  align-items: center;
  gap: 10px;
  min-height: 44px;
  padding: 6px 10px;
  border-radius: 8px;
  cursor: pointer;
  color: ${appTheme.color.text};
  overflow-wrap: anywhere;
  &[aria-selected='true'] {
    background: ${appTheme.color.accentSoft};
    outline: 2px solid ${appTheme.color.focus};
    outline-offset: -2px;
  }
`;

const Handle = styled.span`
  flex: 1;
  min-width: 0;
  font-weight: 600;
`;

const Note = styled.span`
  flex: none;
  font-size: 12px;
  color: ${appTheme.color.textMuted};
`;

async function suggest(q: string, signal: AbortSignal): Promise<PersonResult[]> {
  const url = `/api/people/suggest?${new URLSearchParams({ q, limit: String(SUGGESTIONS) })}`;
  return (await apiClient.get<PersonResult[]>(url, { signal })).data;
}

/** Puts `value` into a React-controlled textarea as typing would: its onChange (or Formik's) runs. */
function typeInto(field: HTMLTextAreaElement, value: string, caret: number) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  setValue?.call(field, value);
  field.setSelectionRange(caret, caret);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

export default function MentionSuggestions({ field }: { field: RefObject<HTMLTextAreaElement | null> }) {
  const t = useTranslations('mentions');
  const listId = useId();
  const [at, setAt] = useState<MentionQuery | null>(null);
  const [results, setResults] = useState<{ q: string; people: PersonResult[] } | null>(null);
  const [active, setActive] = useState(0);
  // The `@` whose list Escape closed: it opens again only for another mention.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const asked = useRef(0);

  const query = at && at.start !== dismissed ? at.query : null;
  // While the answer for a longer prefix is on its way, the last answer narrowed by it.
  const people =
    query && results && query.toLowerCase().startsWith(results.q.toLowerCase())
      ? results.people.filter((p) => p.username.toLowerCase().startsWith(query.toLowerCase()))
      : [];
  const open = people.length > 0;
  const activeIndex = Math.min(active, people.length - 1);
  const optionId = (i: number) => `${listId}-option-${i}`;

  // The textarea is the combobox: roles and states set on it, since the host renders it.
  useEffect(() => {
    const el = field.current;
    if (!el) return;
    el.setAttribute('role', 'combobox');
    el.setAttribute('aria-autocomplete', 'list');
    el.setAttribute('aria-controls', listId);
    return () => {
      for (const name of ['role', 'aria-autocomplete', 'aria-controls', 'aria-expanded', 'aria-activedescendant'])
        el.removeAttribute(name);
    };
  }, [field, listId]);
  useEffect(() => {
    const el = field.current;
    if (!el) return;
    el.setAttribute('aria-expanded', String(open));
    if (open) el.setAttribute('aria-activedescendant', optionId(activeIndex));
    else el.removeAttribute('aria-activedescendant');
  });

  // Debounced; an answer to anything but the latest question is dropped.
  useEffect(() => {
    if (!query) return;
    const ask = ++asked.current;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      suggest(query, controller.signal).then(
        (found) => {
          if (ask === asked.current) setResults({ q: query, people: found });
        },
        () => {
          if (ask === asked.current) setResults({ q: query, people: [] });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const pick = (person: PersonResult) => {
    const el = field.current;
    if (!el || !at) return;
    const next = insertMention(el.value, at, person.username);
    setAt(null);
    setResults(null);
    typeInto(el, next.text, next.caret);
  };

  // Read by the native listener below with this render's state.
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (!open || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
    const take = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      take();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + people.length) % people.length);
    } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      take();
      pick(people[activeIndex]);
    } else if (event.key === 'Escape') {
      take();
      setDismissed(at?.start ?? null);
    }
  });

  // Native listeners on the textarea (see the header comment).
  useEffect(() => {
    const el = field.current;
    if (!el) return;
    const read = () => {
      const found = el.selectionStart === el.selectionEnd ? mentionQueryAt(el.value, el.selectionStart) : null;
      setAt((old) => (old?.start === found?.start && old?.query === found?.query ? old : found));
      // Another mention (another `@`) may open the list Escape closed.
      setDismissed((start) => (found && found.start === start ? start : null));
      setActive(0);
    };
    const keyDown = (event: KeyboardEvent) => onKeyDown(event);
    // Caret moves that are not typing: arrows left and right, Home, End, a click.
    const keyUp = (event: KeyboardEvent) => {
      if (!['ArrowUp', 'ArrowDown', 'Enter', 'Tab', 'Escape', 'Shift'].includes(event.key)) read();
    };
    const blur = () => setAt(null);
    el.addEventListener('input', read);
    el.addEventListener('click', read);
    el.addEventListener('keyup', keyUp);
    el.addEventListener('keydown', keyDown);
    el.addEventListener('blur', blur);
    read();
    return () => {
      el.removeEventListener('input', read);
      el.removeEventListener('click', read);
      el.removeEventListener('keyup', keyUp);
      el.removeEventListener('keydown', keyDown);
      el.removeEventListener('blur', blur);
    };
  }, [field]);

  const answered = query && results && results.q === query;
  return (
    <>
      <List id={listId} role="listbox" aria-label={t('label')} hidden={!open}>
        {people.map((person, i) => (
          <Option
            key={person._id}
            id={optionId(i)}
            role="option"
            aria-selected={i === activeIndex}
            // Keeps focus (and the caret) in the textarea.
            onPointerDown={(event) => event.preventDefault()}
            onClick={() => pick(person)}
          >
            <Avatar src={person.avatar} name={person.username} size={28} />
            <Handle>@{person.username}</Handle>
            {person.followedByMe && <Note>{t('following')}</Note>}
          </Option>
        ))}
      </List>
      <span className="visually-hidden" aria-live="polite">
        {answered ? t('found', { count: people.length }) : ''}
      </span>
    </>
  );
}
