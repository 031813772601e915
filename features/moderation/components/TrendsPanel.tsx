import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import styled from 'styled-components';
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

const hiddenLabel = (entry: HiddenFromTrends) => (entry.kind === 'tag' ? `#${entry.subject}` : 'a post');

/**
 * The trends (issue 73) as Explore shows them, each trending tag and post with Hide, and what admins
 * hid, each with Show again. Hiding takes something out of the trends only: the post stays where it was.
 */
export function TrendsPanel() {
  const dispatch = useAppDispatch();
  const id = useId();
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
  const hide = (kind: HiddenFromTrends['kind'], subject: string, label: string) =>
    change(() => moderationApi.hideFromTrends(kind, subject), `Hid ${label} from the trends.`);

  return (
    <Panel aria-labelledby="admin-trends">
      <h2 id="admin-trends">Trends</h2>
      <p className="lead">
        What Explore shows as trending. Hiding takes a post or a tag out of the trends only: the post stays where it is,
        and the tag still works.
      </p>
      <AdminForm
        onSubmit={async (event) => {
          event.preventDefault();
          const name = tag.trim().replace(/^#/, '');
          if (name && (await hide('tag', name, `#${name.toLowerCase()}`))) setTag('');
        }}
      >
        <label htmlFor={`${id}-tag`}>
          Tag
          <input
            id={`${id}-tag`}
            value={tag}
            onChange={(e) => setTag(e.target.value)}
            placeholder="sunset"
            autoComplete="off"
          />
        </label>
        <Button type="submit">Hide tag</Button>
      </AdminForm>
      {problem && <Problem role="alert">{problem}</Problem>}
      <Part aria-labelledby={`${id}-tags`}>
        <h3 id={`${id}-tags`}>Trending tags</h3>
        {trends && trends.tags.length === 0 && <p>No tag is trending.</p>}
        <AdminList aria-labelledby={`${id}-tags`}>
          {trends?.tags.map((t) => (
            <Row
              key={t.tag}
              what={<AppLink href={links.tagged([t.tag])}>#{t.tag}</AppLink>}
              meta={`${t.people} ${t.people === 1 ? 'person' : 'people'} · ${t.posts} ${t.posts === 1 ? 'post' : 'posts'}`}
              action="Hide"
              actionName={`Hide #${t.tag} from the trends`}
              onAction={() => void hide('tag', t.tag, `#${t.tag}`)}
            />
          ))}
        </AdminList>
      </Part>
      <Part aria-labelledby={`${id}-posts`}>
        <h3 id={`${id}-posts`}>Trending posts</h3>
        {trends && trends.posts.length === 0 && <p>No post is trending.</p>}
        <AdminList aria-labelledby={`${id}-posts`}>
          {trends?.posts.map((post) => (
            <Row
              key={post._id}
              what={<AppLink href={links.post(post._id)}>Post by {post.creator}</AppLink>}
              meta={post.message.slice(0, MESSAGE_SHOWN)}
              action="Hide"
              actionName={`Hide the post by ${post.creator} from the trends`}
              onAction={() => void hide('post', post._id, `the post by ${post.creator}`)}
            />
          ))}
        </AdminList>
      </Part>
      <Part aria-labelledby={`${id}-hidden`}>
        <h3 id={`${id}-hidden`}>Hidden from the trends</h3>
        {hidden && hidden.length === 0 && <p>Nothing is hidden.</p>}
        <AdminList aria-labelledby={`${id}-hidden`}>
          {hidden?.map((entry) => (
            <Row
              key={`${entry.kind} ${entry.subject}`}
              what={
                entry.kind === 'tag' ? (
                  <strong>#{entry.subject}</strong>
                ) : (
                  <AppLink href={links.post(entry.subject)}>A post</AppLink>
                )
              }
              meta={
                <>
                  Hidden <RelativeTime iso={entry.createdAt} />
                </>
              }
              action="Show"
              actionName={`Show ${hiddenLabel(entry)} in the trends again`}
              onAction={() =>
                void change(
                  () => moderationApi.showInTrends(entry.kind, entry.subject),
                  entry.kind === 'tag' ? `#${entry.subject} may trend again.` : 'The post may trend again.',
                )
              }
            />
          ))}
        </AdminList>
      </Part>
    </Panel>
  );
}
