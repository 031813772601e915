import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import { useBackgroundJob } from '../../../hooks/useBackgroundJob';
import styled from 'styled-components';
import { useFormatter, useTranslations } from 'use-intl/react';
import { fieldSurface } from '../../../components/ui/TextField';
import type { InstagramFoundPost, InstagramImport } from '../../../lib/types';
import { Button } from '../../../components/ui/Button';
import { Panel, Stack } from '../../../components/ui/Panel';
import { Spinner } from '../../../components/ui/Spinner';
import { appTheme } from '../../../themes';
import { instagramApi } from '../state/instagramApi';

/** The section's id: `/settings#instagram`. */
export const INSTAGRAM_SECTION = 'instagram';

const Form = styled.form`
  display: grid;
  gap: 12px;
  & > * {
    min-width: 0;
  }
  label {
    font-weight: 600;
    font-size: 14px;
  }
  input[type='file'] {
    display: block;
    box-sizing: border-box;
    max-width: 100%;
    margin-top: 6px;
    padding: 8px 10px;
    ${fieldSurface}
  }
`;

const Note = styled.p`
  margin: 0;
  color: ${appTheme.color.textMuted};
  font-size: 14px;
`;

const Problem = styled.p`
  margin: 0;
  color: ${appTheme.color.danger};
  font-size: 14px;
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
`;

const Found = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  max-height: 360px;
  overflow-y: auto;
  border: 1px solid ${appTheme.color.border};
  border-radius: 10px;
  li {
    display: flex;
    gap: 10px;
    align-items: baseline;
    padding: 8px 12px;
    border-bottom: 1px solid ${appTheme.color.border};
    font-size: 14px;
  }
  li:last-child {
    border-bottom: none;
  }
  li > span {
    min-width: 0;
  }
  .caption {
    font-weight: 400;
    overflow-wrap: anywhere;
  }
  .meta {
    display: block;
    color: ${appTheme.color.textMuted};
  }
`;

const Check = styled.div`
  display: flex;
  gap: 10px;
  align-items: baseline;
  label {
    font-weight: 600;
    font-size: 14px;
  }
`;

const Progress = styled.div`
  display: grid;
  gap: 8px;
  font-size: 14px;
  progress {
    width: 100%;
  }
  ul {
    margin: 0;
    padding-inline-start: 20px;
    color: ${appTheme.color.textMuted};
  }
`;

/** A post's date as the archive gives it (UTC), in the page's language. */
function useDateOf() {
  const format = useFormatter();
  return (iso: string) =>
    format.dateTime(new Date(iso), { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A found post's line: its date, its photos, and what was left out of it. */
function useDescribe() {
  const t = useTranslations('instagramImport');
  const dateOf = useDateOf();
  return (post: InstagramFoundPost): string => {
    const values = { date: dateOf(post.takenAt), photos: post.photos };
    return post.leftOut > 0 ? t('postMetaLeftOut', { ...values, leftOut: post.leftOut }) : t('postMeta', values);
  };
}

function ImportProgress({ job, onCancel }: { job: InstagramImport; onCancel: () => void }) {
  const t = useTranslations('instagramImport');
  const dateOf = useDateOf();
  const running = job.state === 'running';
  const failed = job.posts.filter((p) => p.status === 'failed');
  const title =
    job.state === 'cancelled'
      ? t('progress.cancelled')
      : job.state === 'finished'
        ? t('progress.finished')
        : t('progress.importing');
  return (
    <Progress aria-live="polite" data-testid="instagram-import-progress">
      <strong>{title}</strong>
      <progress max={job.total || 1} value={job.done + job.failed} aria-label={t('progress.label')} />
      <span>
        {job.failed > 0
          ? t('progress.importedFailed', { done: job.done, total: job.total, failed: job.failed })
          : t('progress.imported', { done: job.done, total: job.total })}
      </span>
      {failed.length > 0 && (
        <ul aria-label={t('progress.failures')}>
          {failed.map((p) => (
            <li key={p.position}>{t('progress.failure', { date: dateOf(p.takenAt), error: p.error ?? '' })}</li>
          ))}
        </ul>
      )}
      {running && (
        <div>
          <Button $variant="secondary" onClick={onCancel}>
            {t('progress.cancel')}
          </Button>
        </div>
      )}
    </Progress>
  );
}

/**
 * Import from Instagram or another Posts instance (issue 76): the archive of Instagram's "Download
 * your information" (JSON), or a Posts export ("Download your data"), uploaded; the posts found
 * picked (all by default), then imported in the background at their dates. A Posts export's profile
 * settings come along only when the person ticks the box for them.
 */
export default function InstagramImportSettings() {
  const id = useId();
  const t = useTranslations('instagramImport');
  const describe = useDescribe();
  const file = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [bringSettings, setBringSettings] = useState(false);

  // The last import, waiting, running or just ended, shows when the page is opened again, its
  // posts found picked as at first.
  const pickAll = useCallback(
    (latest: InstagramImport) =>
      setPicked(new Set(latest.posts.filter((p) => p.status === 'found').map((p) => p.position))),
    [],
  );
  const [job, setJob] = useBackgroundJob(instagramApi.latest, instagramApi.progress, pickAll);

  async function act(work: () => Promise<InstagramImport>) {
    setBusy(true);
    setProblem(null);
    try {
      const next = await work();
      setJob(next);
      return next;
    } catch (error) {
      setProblem((error as Error).message);
      return null;
    } finally {
      setBusy(false);
      setSent(null);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = file.current?.files?.[0];
    if (!chosen) {
      setProblem(t('chooseFile'));
      return;
    }
    setSent(0);
    const found = await act(() => instagramApi.upload(chosen, setSent));
    if (found) {
      setPicked(new Set(found.posts.filter((p) => p.status === 'found').map((p) => p.position)));
      if (file.current) file.current.value = '';
    }
  }

  const choosable = job?.state === 'ready' ? job.posts.filter((p) => p.status === 'found') : [];
  const toggle = (position: number) =>
    setPicked((current) => {
      const next = new Set(current);
      if (!next.delete(position)) next.add(position);
      return next;
    });
  const open = job?.state === 'ready' || job?.state === 'running';

  return (
    <Panel id={INSTAGRAM_SECTION} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('heading')}</h2>
      <p className="lead">{t('lead')}</p>
      <Stack>
        {!open && (
          <Form aria-labelledby={`${id}-title`} onSubmit={(event) => void submit(event)} noValidate>
            <div>
              <label htmlFor={`${id}-file`}>{t('file')}</label>
              <input id={`${id}-file`} ref={file} type="file" name="file" accept=".zip,application/zip" />
            </div>
            {problem && <Problem role="alert">{problem}</Problem>}
            {sent !== null && <Note aria-live="polite">{t('uploading', { percent: Math.round(sent * 100) })}</Note>}
            <div>
              <Button type="submit" disabled={busy} aria-busy={busy}>
                {busy && <Spinner />} {t('upload')}
              </Button>
            </div>
          </Form>
        )}
        {job?.state === 'ready' && (
          <Stack>
            <h3>{t('found', { count: choosable.length })}</h3>
            <Row>
              <Button $variant="secondary" onClick={() => setPicked(new Set(choosable.map((p) => p.position)))}>
                {t('selectAll')}
              </Button>
              <Button $variant="secondary" onClick={() => setPicked(new Set())}>
                {t('selectNone')}
              </Button>
              <Note>{t('selected', { count: picked.size })}</Note>
            </Row>
            <Found aria-label={t('foundList')}>
              {job.posts.map((post) => (
                <li key={post.position}>
                  <input
                    id={`${id}-post-${post.position}`}
                    type="checkbox"
                    checked={picked.has(post.position)}
                    disabled={post.status !== 'found'}
                    onChange={() => toggle(post.position)}
                    aria-describedby={`${id}-meta-${post.position}`}
                  />
                  <span>
                    <label htmlFor={`${id}-post-${post.position}`} className="caption">
                      {post.caption || t('noCaption')}
                    </label>
                    <span id={`${id}-meta-${post.position}`} className="meta">
                      {post.status === 'found' ? describe(post) : post.error}
                    </span>
                  </span>
                </li>
              ))}
            </Found>
            {job.kind === 'posts' && job.settings && (
              <Check>
                <input
                  id={`${id}-settings`}
                  type="checkbox"
                  checked={bringSettings}
                  onChange={(event) => setBringSettings(event.target.checked)}
                  aria-describedby={`${id}-settings-note`}
                />
                <span>
                  <label htmlFor={`${id}-settings`}>{t('bringSettings')}</label>
                  <Note id={`${id}-settings-note`}>{t('bringSettingsNote')}</Note>
                </span>
              </Check>
            )}
            {problem && <Problem role="alert">{problem}</Problem>}
            <Row>
              <Button
                disabled={busy || picked.size === 0}
                onClick={() => void act(() => instagramApi.start(job.id, [...picked], bringSettings))}
              >
                {t('start', { count: picked.size })}
              </Button>
              <Button $variant="secondary" disabled={busy} onClick={() => void act(() => instagramApi.cancel(job.id))}>
                {t('cancel')}
              </Button>
            </Row>
          </Stack>
        )}
        {job && job.state !== 'ready' && (
          <ImportProgress job={job} onCancel={() => void act(() => instagramApi.cancel(job.id))} />
        )}
      </Stack>
    </Panel>
  );
}
