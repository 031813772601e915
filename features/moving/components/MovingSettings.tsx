import { useId, useRef, useState, type FormEvent } from 'react';
import { useBackgroundJob } from '../../../hooks/useBackgroundJob';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { fieldSurface } from '../../../components/ui/TextField';
import type { ListImport } from '../../../lib/types';
import { ACCOUNT_LIST_MAX_BYTES, ACCOUNT_LIST_ROWS_MAX } from '../../../lib/limits';
import { Button } from '../../../components/ui/Button';
import { Panel, Stack } from '../../../components/ui/Panel';
import { Spinner } from '../../../components/ui/Spinner';
import { appTheme } from '../../../themes';
import { type ListKind, type ListMode, movingApi } from '../state/movingApi';
import { AccountMoves } from './AccountMoves';

/** The section's id: `/settings#moving`. */
export const MOVING_SECTION = 'moving';
/** The person's last list import. */
const latestImport = async () => (await movingApi.latest())[0] ?? null;

const LISTS: readonly ListKind[] = ['follows', 'blocks', 'mutes'];
const MEGABYTES = ACCOUNT_LIST_MAX_BYTES / 1024 / 1024;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

const Form = styled.form`
  display: grid;
  gap: 14px;
  /* A file input's own width is wider than a phone's column: the grid's items may be narrower. */
  & > * {
    min-width: 0;
  }
  label, legend { font-weight: 600; font-size: 14px; }
  select, input[type='file'] {
    display: block;
    box-sizing: border-box;
    max-width: 100%;
    margin-top: 6px;
    padding: 8px 10px;
    ${fieldSurface}
  }
  fieldset { border: none; margin: 0; padding: 0; display: grid; gap: 6px; }
  fieldset label { font-weight: 400; display: flex; gap: 8px; align-items: baseline; }
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

const Progress = styled.div`
  display: grid;
  gap: 8px;
  font-size: 14px;
  progress { width: 100%; }
  ul { margin: 0; padding-inline-start: 20px; color: ${appTheme.color.textMuted}; }
`;

function save(csv: Blob, filename: string) {
  const url = URL.createObjectURL(csv);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // The browser has taken the file by then; the URL only holds its memory.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function ImportProgress({ job }: { job: ListImport }) {
  const t = useTranslations('moving');
  const finished = job.state === 'finished';
  // Each named whole, so the catalogue test sees every key used.
  const lists: Record<ListKind, string> = {
    follows: t('progress.follows'),
    blocks: t('progress.blocks'),
    mutes: t('progress.mutes'),
  };
  const what = { list: lists[job.type], mode: job.mode === 'merge' ? t('progress.merge') : t('progress.overwrite') };
  const counts = { done: job.done, total: job.total, failed: job.failed, pending: job.pending };
  return (
    <Progress aria-live="polite" data-testid="list-import-progress">
      <strong>{finished ? t('progress.finished', what) : t('progress.importing', what)}</strong>
      <progress max={job.total || 1} value={job.done + job.failed} aria-label={t('progress.label')} />
      <span>{!finished && job.pending > 0 ? t('progress.countsLookingUp', counts) : t('progress.counts', counts)}</span>
      {job.failures.length > 0 && (
        <ul aria-label={t('progress.failures')}>
          {job.failures.map((f) => (
            <li key={f.line}>{t('progress.failure', { line: f.line, address: f.address, error: f.error })}</li>
          ))}
        </ul>
      )}
    </Progress>
  );
}

/**
 * Move in and out: follows, blocked and muted accounts as Mastodon's CSV lists, to take elsewhere
 * or to bring here (issue 76). Saved posts (bookmarks) are not among them: Posts has none yet.
 */
export default function MovingSettings() {
  const id = useId();
  const t = useTranslations('moving');
  const listLabels: Record<ListKind, string> = {
    follows: t('lists.follows'),
    blocks: t('lists.blocks'),
    mutes: t('lists.mutes'),
  };
  const exportLabels: Record<ListKind, string> = {
    follows: t('export.follows'),
    blocks: t('export.blocks'),
    mutes: t('export.mutes'),
  };
  const [kind, setKind] = useState<ListKind>('follows');
  const [mode, setMode] = useState<ListMode>('merge');
  const file = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [exporting, setExporting] = useState<ListKind | null>(null);
  // The last import, still running or just finished, shows when the page is opened again.
  const [job, setJob] = useBackgroundJob(latestImport, movingApi.progress);

  async function download(list: ListKind) {
    setExporting(list);
    setProblem(null);
    try {
      const { csv, filename } = await movingApi.exportList(list);
      save(csv, filename);
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setExporting(null);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = file.current?.files?.[0];
    if (!chosen) {
      setProblem(t('chooseFile'));
      return;
    }
    if (chosen.size > ACCOUNT_LIST_MAX_BYTES) {
      setProblem(t('tooBig', { megabytes: MEGABYTES }));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      setJob(await movingApi.startImport(kind, mode, chosen));
      if (file.current) file.current.value = '';
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Panel id={MOVING_SECTION} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('heading')}</h2>
      <p className="lead">{t('lead')}</p>
      <Stack>
        <Row>
          {LISTS.map((list) => (
            <Button
              key={list}
              $variant="secondary"
              onClick={() => void download(list)}
              disabled={exporting !== null}
              aria-busy={exporting === list}
            >
              {exporting === list && <Spinner />} {exportLabels[list]}
            </Button>
          ))}
        </Row>
        <Form aria-labelledby={`${id}-import`} onSubmit={(event) => void submit(event)} noValidate>
          <h3 id={`${id}-import`}>{t('importHeading')}</h3>
          <div>
            <label htmlFor={`${id}-kind`}>{t('list')}</label>
            <select id={`${id}-kind`} name="type" value={kind} onChange={(e) => setKind(e.target.value as ListKind)}>
              {LISTS.map((list) => (
                <option key={list} value={list}>
                  {listLabels[list]}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend>{t('mode')}</legend>
            <label>
              <input
                type="radio"
                name="mode"
                value="merge"
                checked={mode === 'merge'}
                onChange={() => setMode('merge')}
              />
              {t('merge')}
            </label>
            <label>
              <input
                type="radio"
                name="mode"
                value="overwrite"
                checked={mode === 'overwrite'}
                onChange={() => setMode('overwrite')}
              />
              {t('overwrite')}
            </label>
          </fieldset>
          <div>
            <label htmlFor={`${id}-file`}>{t('file')}</label>
            <input id={`${id}-file`} ref={file} type="file" name="file" accept=".csv,text/csv" />
          </div>
          <Note>{t('limits', { rows: ACCOUNT_LIST_ROWS_MAX, megabytes: MEGABYTES })}</Note>
          {problem && <Problem role="alert">{problem}</Problem>}
          <div>
            <Button type="submit" disabled={busy || job?.state === 'running'} aria-busy={busy}>
              {busy && <Spinner />} {t('import')}
            </Button>
          </div>
        </Form>
        {job && <ImportProgress job={job} />}
        <AccountMoves />
      </Stack>
    </Panel>
  );
}
