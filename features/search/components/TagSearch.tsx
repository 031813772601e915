import { useRouter } from 'next/router';
import { lazy, Suspense, useCallback, useId, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { SEARCH_INPUT_WIDTH_PX, USERNAME_MAX } from '../../../lib/limits';
import type { PersonResult } from '../../../lib/types';
import { isRemoteQuery } from '../../../lib/handles';
import { normalizeTag, tagRule } from '../../../lib/validation';
import { Icon } from '../../../components/ui/Icon';
import { TagList } from '../../../components/ui/TagList';
import { appTheme } from '../../../themes';
import { links } from '../../../lib/pages';

const Form = styled.form`
  position: relative;
  flex: 0 1 ${SEARCH_INPUT_WIDTH_PX}px;
  min-width: 0;
`;

const Bar = styled.div`
  display: flex;
  align-items: center;
  height: 34px;
  border-radius: ${appTheme.radius.pill};
  background: ${appTheme.color.surfaceRaised};
  border: 1px solid ${appTheme.color.border};
  color: ${appTheme.color.textMuted};
  padding-inline-start: 12px;
  &:focus-within { border-color: ${appTheme.color.accent}; }
  input {
    flex: 1;
    min-width: 0;
    height: 100%;
    border: none;
    background: transparent;
    padding: 0 8px;
    color: ${appTheme.color.text};
    &:focus { outline: none; }
    &::placeholder { color: ${appTheme.color.textMuted}; }
  }
  button {
    height: 100%;
    padding: 0 14px;
    border: none;
    border-start-end-radius: ${appTheme.radius.pill};
    border-end-end-radius: ${appTheme.radius.pill};
    background: ${appTheme.color.accent};
    color: ${appTheme.color.onAccent};
    font-weight: 600;
    cursor: pointer;
    &:disabled { cursor: not-allowed; }
  }
`;

const Panel = styled.div`
  position: absolute;
  top: calc(100% + 6px);
  inset-inline-start: 0;
  inset-inline-end: 0;
  padding: 10px 12px;
  border-radius: ${appTheme.radius.md};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  box-shadow: ${appTheme.shadow};
  color: ${appTheme.color.text};
`;

const PanelHead = styled.div`
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: 12px;
  white-space: nowrap;
  margin-bottom: 8px;
  font-size: 13px;
  color: ${appTheme.color.textMuted};
  button {
    border: none;
    background: none;
    color: ${appTheme.color.accent};
    font-size: 13px;
    font-weight: 600;
    cursor: pointer;
    padding: 2px 4px;
    border-radius: 4px;
  }
`;

const Error = styled.p`
  margin: 0 0 6px;
  font-size: 13px;
  color: ${appTheme.color.danger};
`;

const Section = styled.div`
  & + & { margin-top: 10px; padding-top: 10px; border-top: 1px solid ${appTheme.color.border}; }
`;

// The people found as you type load with the first keystroke, not with the navbar.
const loadPeopleResults = () => import('./PeopleResults');
const PeopleResults = lazy(loadPeopleResults);

const NAME_PREFIX = new RegExp(`^[A-Za-z0-9_.]{1,${USERNAME_MAX}}$`);

/**
 * What the field holds, read as a people search: `@name` looks for people only; a plain word (a
 * `#` dropped) is a tag and a name prefix both; `@name@host` or an address names someone elsewhere,
 * whom the server looks up (`remote`: the one found is the answer, whatever their name). Null when
 * it cannot start a username.
 */
export function peopleQueryOf(input: string): { query: string; only: boolean; remote?: true } | null {
  const trimmed = input.trim();
  if (isRemoteQuery(trimmed)) return { query: trimmed, only: true, remote: true };
  const only = trimmed.startsWith('@');
  const query = only ? trimmed.slice(1) : trimmed.replace(/^#/, '');
  return NAME_PREFIX.test(query) ? { query, only } : only ? { query: '', only } : null;
}

/**
 * The navbar's search: Enter adds a tag, Search opens /tagged/{tag1,tag2}; people whose name starts
 * with what is typed show beside the tags, and `@name` searches people only (Enter opens the first).
 */
export function TagSearch({ onSearch }: { onSearch?: () => void }) {
  const t = useTranslations('search');
  const router = useRouter();
  const id = useId();
  const [tags, setTags] = useState<string[]>([]);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The tag list floats over the page, so it shows only while the search is being used.
  const [active, setActive] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  // The first person found, and for which query (someone elsewhere only for their own handle).
  const firstPerson = useRef<{ query: string; person: PersonResult } | null>(null);
  const people = peopleQueryOf(input);
  const onFound = useCallback((found: PersonResult[], query: string) => {
    firstPerson.current = found[0] ? { query, person: found[0] } : null;
  }, []);

  const withInput = (): string[] | null => {
    const tag = normalizeTag(input);
    if (!tag) return tags;
    const broken = tagRule(tag);
    if (broken) {
      if (broken.rule === 'tagRequired') setError(t('tagRules.required'));
      else if (broken.rule === 'tagPattern') setError(t('tagRules.pattern'));
      else setError(t('tagRules.lowerCaseLength', { max: broken.max }));
      return null;
    }
    setError(null);
    setInput('');
    if (tags.some((known) => known.toLowerCase() === tag.toLowerCase())) return tags;
    const next = [...tags, tag];
    setTags(next);
    return next;
  };

  const close = () => {
    setActive(false);
    onSearch?.();
  };

  const openFirstPerson = () => {
    const person = firstPerson.current?.person;
    if (!person || !people?.query) return;
    if (
      people.remote
        ? firstPerson.current?.query !== people.query
        : !person.username.toLowerCase().startsWith(people.query.toLowerCase())
    )
      return;
    void router.push(links.profile(person.username));
    setInput('');
    close();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      const first = panelRef.current?.querySelector<HTMLAnchorElement>('[data-people-results] a');
      if (first) {
        event.preventDefault();
        first.focus();
      }
      return;
    }
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (people?.only) openFirstPerson();
    else withInput();
  };

  const search = () => {
    if (people?.only) return openFirstPerson();
    const all = withInput();
    if (!all || all.length === 0) return;
    void router.push(links.tagged(all));
    close();
  };

  return (
    <Form
      role="search"
      aria-label={t('formLabel')}
      onSubmit={(event) => {
        event.preventDefault();
        search();
      }}
      onFocus={() => setActive(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setActive(false);
      }}
    >
      <Bar>
        <Icon name="hash" size={16} />
        <label htmlFor={id} className="visually-hidden">
          {t('inputLabel')}
        </label>
        <span id={`${id}-hint`} className="visually-hidden">
          {t('inputHint')}
        </span>
        <input
          ref={inputRef}
          id={id}
          value={input}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={onKeyDown}
          onPointerEnter={() => void loadPeopleResults()}
          placeholder={t('placeholder')}
          autoComplete="off"
          aria-describedby={tags.length ? `${id}-hint ${id}-tags` : `${id}-hint`}
        />
        <button type="submit">{t('submit')}</button>
      </Bar>
      {active && (tags.length > 0 || error || people?.query) && (
        <Panel id={`${id}-tags`} ref={panelRef}>
          {error && <Error role="alert">{error}</Error>}
          {tags.length > 0 && (
            <Section>
              <PanelHead>
                <span aria-live="polite">{t('tagCount', { count: tags.length })}</span>
                {tags.length >= 2 && (
                  <button
                    type="button"
                    onClick={() => {
                      setTags([]);
                      inputRef.current?.focus();
                    }}
                  >
                    {t('removeAll')}
                  </button>
                )}
              </PanelHead>
              <TagList
                tags={tags}
                onRemove={(tag) => {
                  setTags(tags.filter((other) => other !== tag));
                  // The chip's button goes away with it; keep the keyboard in the search.
                  inputRef.current?.focus();
                }}
              />
            </Section>
          )}
          {people?.query && (
            <Section>
              <Suspense fallback={null}>
                <PeopleResults
                  query={people.query}
                  onFound={onFound}
                  onNavigate={() => {
                    setInput('');
                    close();
                  }}
                  onLeaveUp={() => inputRef.current?.focus()}
                />
              </Suspense>
            </Section>
          )}
        </Panel>
      )}
    </Form>
  );
}
