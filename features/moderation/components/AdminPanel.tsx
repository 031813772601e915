import { useEffect, useId, useState } from 'react';
import styled from 'styled-components';
import { fieldSurface } from '../../../components/ui/TextField';
import type { Report, ReportAction } from '../../../lib/types';
import { links } from '../../../lib/pages';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { REPORT_REASON_LABELS } from '../../../lib/moderationTexts';
import { useToasts } from '../../../store/toasts';
import { AppLink } from '../../../components/ui/AppLink';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Panel, Stack } from '../../../components/ui/Panel';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { appTheme } from '../../../themes';
import {
  adminCleared,
  adminToasts,
  fetchDomains,
  fetchLog,
  fetchMoreLog,
  fetchOverview,
  lookupUser,
  reportedUser,
  resolveReport,
  selectLog,
  selectLookup,
  selectQueueProblem,
  suspendUser,
  unsuspendUser,
} from '../state/adminSlice';
import { useReportQueueInfiniteQuery, type QueueStatus } from '../state/moderationQueries';
import { queryError, useQueryApi } from '../../../store/queryApi';
import { DomainBlocksPanel } from './DomainBlocksPanel';
import { OverviewPanel } from './OverviewPanel';
import { TrendsPanel } from './TrendsPanel';

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
    ${fieldSurface}
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
  silenceDomain: 'silenced',
  suspendDomain: 'suspended',
  unblockDomain: 'unblocked',
  hideFromTrends: 'hid from the trends',
  showInTrends: 'showed in the trends again',
};

/** A destructive action waiting for the admin's yes. */
interface Pending {
  id: string;
  title: string;
  message: string;
  confirmLabel: string;
  run: () => Promise<unknown>;
}

const suspension = (username: string | null): Omit<Pending, 'id' | 'run'> => ({
  title: username ? `Suspend ${username}?` : 'Suspend this account?',
  message:
    'Their sessions end at once, and their profile, posts and comments are hidden from everyone until an admin unsuspends them.',
  confirmLabel: 'Suspend',
});

/** What the admin confirms before a report's action: removing the content, or suspending its author. */
function confirmationOf(report: Report, action: 'removeContent' | 'suspendUser'): Omit<Pending, 'id' | 'run'> {
  if (action === 'suspendUser') return suspension(reportedUser(report));
  return report.targetType === 'comment'
    ? {
        title: 'Remove this comment?',
        message: 'The comment and its reactions will be removed for everyone. This cannot be undone.',
        confirmLabel: 'Remove',
      }
    : {
        title: 'Remove this post?',
        message: 'The post, its comments and its reactions will be removed for everyone. This cannot be undone.',
        confirmLabel: 'Remove',
      };
}

/** The dialog of a pending action: it stays, busy, until the action has an answer. */
function Confirmation({ pending, onDone }: { pending: Pending; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      title={pending.title}
      message={pending.message}
      confirmLabel={pending.confirmLabel}
      busy={busy}
      onCancel={onDone}
      onConfirm={async () => {
        setBusy(true);
        await pending.run();
        onDone();
      }}
    />
  );
}

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

/** The queue: the chosen tab's reports, paged, each open one with its actions. */
function Queue() {
  const dispatch = useAppDispatch();
  const [status, setStatus] = useState<QueueStatus>('open');
  // `data` keeps the last tab's reports on screen until the new tab's arrive, as before.
  const { data, error: failure, hasNextPage, fetchNextPage, refetch } = useReportQueueInfiniteQuery(status);
  const error = queryError(failure);
  const reports = data?.pages.flatMap((page) => page.items);
  const problem = useAppSelector(selectQueueProblem);
  const [pending, setPending] = useState<Pending | null>(null);
  const act = (report: Report, action: ReportAction) => dispatch(resolveReport({ report, action }));
  const confirm = (report: Report, action: 'removeContent' | 'suspendUser') =>
    setPending({ ...confirmationOf(report, action), id: `${report.id} ${action}`, run: () => act(report, action) });
  return (
    <Panel aria-labelledby="admin-queue">
      <h2 id="admin-queue">Reports</h2>
      <Tabs role="group" aria-label="Which reports">
        {(['open', 'resolved'] as const).map((s) => (
          <Button
            key={s}
            $variant="secondary"
            $size="sm"
            aria-pressed={status === s}
            // The tab on screen pressed again is read again.
            onClick={() => (s === status ? void refetch() : setStatus(s))}
          >
            {s === 'open' ? 'Open' : 'Resolved'}
          </Button>
        ))}
      </Tabs>
      {(error || problem) && <Problem role="alert">{error ?? problem}</Problem>}
      {reports && reports.length === 0 && <p>No {status} reports.</p>}
      <List>
        {reports?.map((report) => (
          <Item key={report.id} aria-label={`Report of a ${report.targetType} by ${report.reporter}`}>
            <span className="meta">
              {REPORT_REASON_LABELS[report.reason] ?? report.reason} · reported by {report.reporter}{' '}
              <RelativeTime iso={report.createdAt} />
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
                  <Button $variant="danger" $size="sm" onClick={() => confirm(report, 'removeContent')}>
                    Remove {report.targetType}
                  </Button>
                )}
                <Button $variant="danger" $size="sm" onClick={() => confirm(report, 'suspendUser')}>
                  {report.targetType === 'user' ? 'Suspend user' : 'Suspend author'}
                </Button>
              </div>
            )}
          </Item>
        ))}
      </List>
      {hasNextPage && (
        <Button $variant="secondary" onClick={() => void fetchNextPage()}>
          Load more
        </Button>
      )}
      {pending && (
        // A confirmation of its own per action (its busy state with it); one that ends closes only itself.
        <Confirmation
          key={pending.id}
          pending={pending}
          onDone={() => setPending((shown) => (shown === pending ? null : shown))}
        />
      )}
    </Panel>
  );
}

/** A user by name, with Suspend or Unsuspend. */
function UserLookup() {
  const dispatch = useAppDispatch();
  const id = useId();
  const [name, setName] = useState('');
  const { user, problem } = useAppSelector(selectLookup);
  const [pending, setPending] = useState<Pending | null>(null);
  return (
    <Panel aria-labelledby="admin-users">
      <h2 id="admin-users">Users</h2>
      <LookupForm
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) void dispatch(lookupUser(name.trim()));
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
                <Button $variant="secondary" onClick={() => void dispatch(unsuspendUser(user.username))}>
                  Unsuspend
                </Button>
              ) : (
                <Button
                  $variant="danger"
                  onClick={() =>
                    setPending({
                      ...suspension(user.username),
                      id: `suspend ${user.username}`,
                      run: () => dispatch(suspendUser(user.username)),
                    })
                  }
                >
                  Suspend
                </Button>
              )}
            </div>
          )}
        </Item>
      )}
      {pending && (
        // A confirmation of its own per action (its busy state with it); one that ends closes only itself.
        <Confirmation
          key={pending.id}
          pending={pending}
          onDone={() => setPending((shown) => (shown === pending ? null : shown))}
        />
      )}
    </Panel>
  );
}

/** What admins did, newest first; read again after every action on this page. */
function Log() {
  const dispatch = useAppDispatch();
  const { page, error } = useAppSelector(selectLog);
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
        <Button $variant="secondary" onClick={() => void dispatch(fetchMoreLog())}>
          Load more
        </Button>
      )}
    </Panel>
  );
}

/**
 * The admin page: the overview, the report queue, a user lookup with suspend and unsuspend, the
 * blocked domains, the trends with what is hidden from them, and the log.
 */
export default function AdminPanel() {
  const dispatch = useAppDispatch();
  useQueryApi();
  useToasts(adminToasts);
  useEffect(() => {
    void dispatch(fetchOverview());
    void dispatch(fetchLog());
    void dispatch(fetchDomains());
    return () => {
      dispatch(adminCleared());
    };
  }, [dispatch]);
  return (
    <Stack $gap={20}>
      <OverviewPanel />
      <Queue />
      <UserLookup />
      <DomainBlocksPanel />
      <TrendsPanel />
      <Log />
    </Stack>
  );
}
