import { useCallback, useEffect, useId, useState } from 'react';
import styled from 'styled-components';
import type { AdminLogEntry, AdminUserInfo, Report, ReportAction } from '../../lib/types';
import { links } from '../../lib/pages';
import { errorMessage, type Page } from '../../services/apiClient';
import { AppLink } from '../../components/ui/AppLink';
import { Button } from '../../components/ui/Button';
import { Panel, Stack } from '../../components/ui/Panel';
import { RelativeTime } from '../../components/ui/RelativeTime';
import { appTheme } from '../../themes';
import { moderationApi } from './moderationApi';

const Tabs = styled.div`
  display: flex;
  gap: 8px;
  margin-bottom: 12px;
  button[aria-pressed='true'] { outline: 2px solid ${appTheme.color.accent}; }
`;

const List = styled.ul`
  display: grid;
  gap: 12px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Item = styled.li`
  display: grid;
  gap: 8px;
  padding: 12px;
  border: 1px solid ${appTheme.color.border};
  border-radius: ${appTheme.radius.md};
  overflow-wrap: anywhere;
  .meta { font-size: 13px; color: ${appTheme.color.textMuted}; }
  .note { margin: 0; font-style: italic; }
  .preview { display: flex; gap: 10px; align-items: flex-start; }
  .preview img { width: 64px; height: 64px; object-fit: cover; border-radius: 8px; flex: none; }
  .preview p { margin: 0; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; }
`;

const LookupForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: flex-end;
  label { display: grid; gap: 6px; font-weight: 600; font-size: 14px; flex: 1 1 200px; }
  input {
    padding: 10px 12px;
    border-radius: 10px;
    border: 1px solid ${appTheme.color.border};
    background: ${appTheme.color.bg};
    color: ${appTheme.color.text};
  }
`;

const Problem = styled.p`
  margin: 0;
  color: ${appTheme.color.danger};
`;

const ACTION_TEXTS: Record<string, string> = {
  dismiss: 'dismissed a report on',
  removeContent: 'removed',
  suspendUser: 'suspended',
  unsuspendUser: 'unsuspended',
};

function TargetPreview({ report }: { report: Report }) {
  const target = report.target;
  if (!target) return <p className="meta">The reported {report.targetType} is gone.</p>;
  if (target.type === 'post')
    return (
      <div className="preview">
        <img src={target.image} alt={target.alt || `Image posted by ${target.creator}`} />
        <p>
          <AppLink href={links.post(target._id)}>Post</AppLink> by{' '}
          <AppLink href={links.profile(target.creator)}>{target.creator}</AppLink>: {target.message}
        </p>
      </div>
    );
  if (target.type === 'comment')
    return (
      <p>
        <AppLink href={links.post(target.postId)}>Comment</AppLink> by{' '}
        <AppLink href={links.profile(target.creator)}>{target.creator}</AppLink>: {target.message}
      </p>
    );
  return (
    <p>
      User <AppLink href={links.profile(target.username)}>{target.username}</AppLink>
      {target.suspended ? ' (suspended)' : ''}
      {target.description ? `: ${target.description}` : ''}
    </p>
  );
}

function useList<T>(load: () => Promise<Page<T>>) {
  const [page, setPage] = useState<Page<T> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    load().then(
      (loaded) => {
        setPage(loaded);
        setError(null);
      },
      (failed: unknown) => setError(errorMessage(failed)),
    );
  }, [load]);
  const more = async () => {
    if (!page?.next) return;
    const next = await moderationApi.page<T>(page.next);
    setPage({ items: [...page.items, ...next.items], next: next.next });
  };
  useEffect(reload, [reload]);
  return { page, error, reload, more };
}

function Queue({ onChanged }: { onChanged: () => void }) {
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const load = useCallback(() => moderationApi.queue(status), [status]);
  const { page, error, reload, more } = useList(load);
  const [problem, setProblem] = useState<string | null>(null);
  const act = async (report: Report, action: ReportAction) => {
    setProblem(null);
    try {
      await moderationApi.resolve(report.id, action);
      reload();
      onChanged();
    } catch (failed) {
      setProblem(errorMessage(failed));
    }
  };
  return (
    <Panel aria-labelledby="admin-queue">
      <h2 id="admin-queue">Reports</h2>
      <Tabs role="group" aria-label="Which reports">
        {(['open', 'resolved'] as const).map((s) => (
          <Button key={s} $variant="secondary" $size="sm" aria-pressed={status === s} onClick={() => setStatus(s)}>
            {s === 'open' ? 'Open' : 'Resolved'}
          </Button>
        ))}
      </Tabs>
      {(error || problem) && <Problem role="alert">{error ?? problem}</Problem>}
      {page && page.items.length === 0 && <p>No {status} reports.</p>}
      <List>
        {page?.items.map((report) => (
          <Item key={report.id} aria-label={`Report of a ${report.targetType} by ${report.reporter}`}>
            <span className="meta">
              {report.reason} · reported by {report.reporter} <RelativeTime iso={report.createdAt} />
              {report.resolution && ` · ${report.resolution} by ${report.resolvedBy}`}
            </span>
            <TargetPreview report={report} />
            {report.note && <p className="note">“{report.note}”</p>}
            {report.status === 'open' && (
              <div className="actions">
                <Button $variant="secondary" $size="sm" onClick={() => void act(report, 'dismiss')}>
                  Dismiss
                </Button>
                {report.targetType !== 'user' && (
                  <Button $variant="danger" $size="sm" onClick={() => void act(report, 'removeContent')}>
                    Remove {report.targetType}
                  </Button>
                )}
                <Button $variant="danger" $size="sm" onClick={() => void act(report, 'suspendUser')}>
                  {report.targetType === 'user' ? 'Suspend user' : 'Suspend author'}
                </Button>
              </div>
            )}
          </Item>
        ))}
      </List>
      {page?.next && (
        <Button $variant="secondary" onClick={() => void more()}>
          Load more
        </Button>
      )}
    </Panel>
  );
}

function UserLookup({ onChanged }: { onChanged: () => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [user, setUser] = useState<AdminUserInfo | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async (work: () => Promise<AdminUserInfo>) => {
    setProblem(null);
    try {
      setUser(await work());
      onChanged();
    } catch (failed) {
      setUser(null);
      setProblem(errorMessage(failed));
    }
  };
  return (
    <Panel aria-labelledby="admin-users">
      <h2 id="admin-users">Users</h2>
      <LookupForm
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) void run(() => moderationApi.lookup(name.trim()));
        }}
      >
        <label htmlFor={`${id}-name`}>
          Username
          <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </label>
        <Button type="submit">Look up</Button>
      </LookupForm>
      {problem && <Problem role="alert">{problem}</Problem>}
      {user && (
        <Item as="div" aria-live="polite">
          <p>
            <AppLink href={links.profile(user.username)}>{user.username}</AppLink> · {user.role} · {user.postsCount}{' '}
            posts · joined <RelativeTime iso={user.createdAt} />
          </p>
          <p>{user.suspendedAt ? 'Suspended' : 'Active'}</p>
          {user.role !== 'admin' && (
            <div className="actions">
              {user.suspendedAt ? (
                <Button $variant="secondary" onClick={() => void run(() => moderationApi.unsuspend(user.username))}>
                  Unsuspend
                </Button>
              ) : (
                <Button $variant="danger" onClick={() => void run(() => moderationApi.suspend(user.username))}>
                  Suspend
                </Button>
              )}
            </div>
          )}
        </Item>
      )}
    </Panel>
  );
}

function Log({ version }: { version: number }) {
  // `version` changes after every action on this page: the log reloads to show it.
  const load = useCallback(() => moderationApi.log(), [version]); // eslint-disable-line react-hooks/exhaustive-deps -- version only triggers a reload
  const { page, error, more } = useList<AdminLogEntry>(load);
  return (
    <Panel aria-labelledby="admin-log">
      <h2 id="admin-log">Log</h2>
      {error && <Problem role="alert">{error}</Problem>}
      {page && page.items.length === 0 && <p>Nothing yet.</p>}
      <List>
        {page?.items.map((entry) => (
          <Item key={entry.id}>
            <span>
              <strong>{entry.admin}</strong> {ACTION_TEXTS[entry.action] ?? entry.action} {entry.targetType} “
              {entry.target}” <RelativeTime iso={entry.createdAt} />
            </span>
            {entry.note && <p className="note">{entry.note}</p>}
          </Item>
        ))}
      </List>
      {page?.next && (
        <Button $variant="secondary" onClick={() => void more()}>
          Load more
        </Button>
      )}
    </Panel>
  );
}

/** The admin page: the report queue, a user lookup with suspend and unsuspend, and the log. */
export default function AdminPanel() {
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  return (
    <Stack $gap={20}>
      <Queue onChanged={changed} />
      <UserLookup onChanged={changed} />
      <Log version={version} />
    </Stack>
  );
}
