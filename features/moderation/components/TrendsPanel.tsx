import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import type { Explore, HiddenFromTrends } from '../../../lib/types';
import { links } from '../../../lib/pages';
import { errorMessage } from '../../../services/apiClient';
import { useAppDispatch } from '../../../store/hooks';
import { showToast } from '../../toasts';
import { AppLink } from '../../../components/ui/AppLink';
import { Button } from '../../../components/ui/Button';
import { Panel } from '../../../components/ui/Panel';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { moderationApi } from '../state/moderationApi';
import { AdminForm, AdminList, Problem } from './AdminParts';

const Part = styled.section`
  margin-top: 16px;
  h3 { font-size: 15px; margin: 0 0 8px; }
  p { margin: 0; }
`;

/** How much of a post's message names it in the list (characters). */
const MESSAGE_SHOWN = 80;

/** One row of a list: what it is, a line about it, and its one action. */
function Row(props: { what: ReactNode; meta: ReactNode; action: string; actionName: string; onAction: () => void }) {
  return (
    <li>
      <span className="what">
        {props.what}
        <span className="meta">{props.meta}</span>
      </span>
      <Button $variant="secondary" $size="sm" aria-label={props.actionName} onClick={props.onAction}>
        {props.action}
      </Button>
    </li>
  );
}

/** What trends now, and what is hidden. */
const readLists = () => Promise.all([moderationApi.trends(), moderationApi.hiddenFromTrends()]);

/**
 * The trends (issue 73) as Explore shows them, each trending tag and post with Hide, and what admins
 * hid, each with Show again. Hiding takes something out of the trends only: the post stays where it was.
 */
export function TrendsPanel() {
  const dispatch = useAppDispatch();
  const id = useId();
  const t = useTranslations('admin');
  const [trends, setTrends] = useState<Explore | null>(null);
  const [hidden, setHidden] = useState<HiddenFromTrends[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [tag, setTag] = useState('');

  const shown = useCallback((lists: [Explore, HiddenFromTrends[]]) => {
    setTrends(lists[0]);
    setHidden(lists[1]);
    setProblem(null);
  }, []);
  const failed = useCallback((error: unknown) => setProblem(errorMessage(error)), []);
  useEffect(() => {
    let live = true;
    readLists().then(
      (lists) => live && shown(lists),
      (error: unknown) => live && failed(error),
    );
    return () => {
      live = false;
    };
  }, [shown, failed]);

  /** Hides or shows, says so, and reads both lists again; false when the server refused. */
  const change = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
    } catch (error) {
      failed(error);
      return false;
    }
    dispatch(showToast(done, 'success'));
    await readLists().then(shown, failed);
    return true;
  };
  const hide = (kind: HiddenFromTrends['kind'], subject: string, done: string) =>
    change(() => moderationApi.hideFromTrends(kind, subject), done);

  return (
    <Panel aria-labelledby="admin-trends">
      <h2 id="admin-trends">{t('trends.heading')}</h2>
      <p className="lead">{t('trends.lead')}</p>
      <AdminForm
        onSubmit={async (event) => {
          event.preventDefault();
          const name = tag.trim().replace(/^#/, '');
          if (name && (await hide('tag', name, t('trends.tagHidden', { tag: name.toLowerCase() })))) setTag('');
        }}
      >
        <label htmlFor={`${id}-tag`}>
          {t('trends.tag')}
          <input
            id={`${id}-tag`}
            value={tag}
            onChange={(e) => setTag(e.target.value)}
            placeholder={t('trends.tagPlaceholder')}
            autoComplete="off"
          />
        </label>
        <Button type="submit">{t('trends.hideTag')}</Button>
      </AdminForm>
      {problem && <Problem role="alert">{problem}</Problem>}
      <Part aria-labelledby={`${id}-tags`}>
        <h3 id={`${id}-tags`}>{t('trends.tags')}</h3>
        {trends && trends.tags.length === 0 && <p>{t('trends.noTags')}</p>}
        <AdminList aria-labelledby={`${id}-tags`}>
          {trends?.tags.map((trend) => (
            <Row
              key={trend.tag}
              what={
                <AppLink href={links.tagged([trend.tag])}>
                  <bdi>#{trend.tag}</bdi>
                </AppLink>
              }
              meta={t('trends.tagMeta', { people: trend.people, posts: trend.posts })}
              action={t('trends.hide')}
              actionName={t('trends.hideTagOf', { tag: trend.tag })}
              onAction={() => void hide('tag', trend.tag, t('trends.tagHidden', { tag: trend.tag }))}
            />
          ))}
        </AdminList>
      </Part>
      <Part aria-labelledby={`${id}-posts`}>
        <h3 id={`${id}-posts`}>{t('trends.posts')}</h3>
        {trends && trends.posts.length === 0 && <p>{t('trends.noPosts')}</p>}
        <AdminList aria-labelledby={`${id}-posts`}>
          {trends?.posts.map((post) => (
            <Row
              key={post._id}
              what={<AppLink href={links.post(post._id)}>{t('trends.postBy', { creator: post.creator })}</AppLink>}
              meta={post.message.slice(0, MESSAGE_SHOWN)}
              action={t('trends.hide')}
              actionName={t('trends.hidePostOf', { creator: post.creator })}
              onAction={() => void hide('post', post._id, t('trends.postHidden', { creator: post.creator }))}
            />
          ))}
        </AdminList>
      </Part>
      <Part aria-labelledby={`${id}-hidden`}>
        <h3 id={`${id}-hidden`}>{t('trends.hidden')}</h3>
        {hidden && hidden.length === 0 && <p>{t('trends.noHidden')}</p>}
        <AdminList aria-labelledby={`${id}-hidden`}>
          {hidden?.map((entry) => (
            <Row
              key={`${entry.kind} ${entry.subject}`}
              what={
                entry.kind === 'tag' ? (
                  <strong>
                    <bdi>#{entry.subject}</bdi>
                  </strong>
                ) : (
                  <AppLink href={links.post(entry.subject)}>{t('trends.aPost')}</AppLink>
                )
              }
              meta={t.rich('trends.hiddenSince', { time: () => <RelativeTime iso={entry.createdAt} /> })}
              action={t('trends.show')}
              actionName={entry.kind === 'tag' ? t('trends.showTagOf', { tag: entry.subject }) : t('trends.showPostOf')}
              onAction={() =>
                void change(
                  () => moderationApi.showInTrends(entry.kind, entry.subject),
                  entry.kind === 'tag' ? t('trends.tagBack', { tag: entry.subject }) : t('trends.postBack'),
                )
              }
            />
          ))}
        </AdminList>
      </Part>
    </Panel>
  );
}
