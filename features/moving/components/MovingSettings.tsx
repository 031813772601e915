import { useId, useRef, useState, type FormEvent } from 'react';
import { useBackgroundJob } from '../../../hooks/useBackgroundJob';
import styled from 'styled-components';
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

const KIND_LABELS: Record<ListKind, string> = {
  follows: 'Follows',
  blocks: 'Blocked accounts',
  mutes: 'Muted accounts',
};

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
  const finished = job.state === 'finished';
  return (
    <Progress aria-live="polite" data-testid="list-import-progress">
      <strong>
        {finished ? 'Import finished' : 'Importing'}: {KIND_LABELS[job.type].toLowerCase()} ({job.mode})
      </strong>
      <progress max={job.total || 1} value={job.done + job.failed} aria-label="Import progress" />
      <span>
        {job.done} of {job.total} done, {job.failed} failed, {job.pending} waiting
        {!finished && job.pending > 0 && ' (people on other servers are looked up in the background)'}
      </span>
      {job.failures.length > 0 && (
        <ul aria-label="Rows not imported">
          {job.failures.map((f) => (
            <li key={f.line}>
              Line {f.line}, {f.address}: {f.error}
            </li>
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
      setProblem('Choose a CSV file to import');
      return;
    }
    if (chosen.size > ACCOUNT_LIST_MAX_BYTES) {
      setProblem(`A list may be at most ${ACCOUNT_LIST_MAX_BYTES / 1024 / 1024} MB`);
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
      <h2 id={`${id}-title`}>Move in and out</h2>
      <p className="lead">
        Your follows, blocked and muted accounts as CSV lists in Mastodon&apos;s format: take them to another server, or
        bring them here from Mastodon, Pixelfed or another Posts. Saved posts (bookmarks) are not included yet. Below:
        moving the account itself, followers and all.
      </p>
      <Stack>
        <Row>
          {(Object.keys(KIND_LABELS) as ListKind[]).map((list) => (
            <Button
              key={list}
              $variant="secondary"
              onClick={() => void download(list)}
              disabled={exporting !== null}
              aria-busy={exporting === list}
            >
              {exporting === list && <Spinner />} Export {KIND_LABELS[list].toLowerCase()}
            </Button>
          ))}
        </Row>
        <Form aria-labelledby={`${id}-import`} onSubmit={(event) => void submit(event)} noValidate>
          <h3 id={`${id}-import`}>Import a list</h3>
          <div>
            <label htmlFor={`${id}-kind`}>List</label>
            <select id={`${id}-kind`} name="type" value={kind} onChange={(e) => setKind(e.target.value as ListKind)}>
              {(Object.keys(KIND_LABELS) as ListKind[]).map((list) => (
                <option key={list} value={list}>
                  {KIND_LABELS[list]}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend>What happens to your current list</legend>
            <label>
              <input
                type="radio"
                name="mode"
                value="merge"
                checked={mode === 'merge'}
                onChange={() => setMode('merge')}
              />
              Merge: add the file&apos;s accounts to yours
            </label>
            <label>
              <input
                type="radio"
                name="mode"
                value="overwrite"
                checked={mode === 'overwrite'}
                onChange={() => setMode('overwrite')}
              />
              Overwrite: keep only the file&apos;s accounts (the others are unfollowed, unblocked or unmuted)
            </label>
          </fieldset>
          <div>
            <label htmlFor={`${id}-file`}>CSV file</label>
            <input id={`${id}-file`} ref={file} type="file" name="file" accept=".csv,text/csv" />
          </div>
          <Note>
            Up to {ACCOUNT_LIST_ROWS_MAX.toLocaleString('en')} accounts, {ACCOUNT_LIST_MAX_BYTES / 1024 / 1024} MB.
          </Note>
          {problem && <Problem role="alert">{problem}</Problem>}
          <div>
            <Button type="submit" disabled={busy || job?.state === 'running'} aria-busy={busy}>
              {busy && <Spinner />} Import
            </Button>
          </div>
        </Form>
        {job && <ImportProgress job={job} />}
        <AccountMoves />
      </Stack>
    </Panel>
  );
}
