import { type ReactNode, useEffect, useId, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { fieldSurface } from '../../../components/ui/TextField';
import type { AdminLogEntry, Report, ReportAction } from '../../../lib/types';
import { links } from '../../../lib/pages';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
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
import { useReasonLabels } from '../hooks/useReasonLabels';

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

/** A destructive action waiting for the admin's yes. */
interface Pending {
  id: string;
  title: string;
  message: string;
  confirmLabel: string;
  run: () => Promise<unknown>;
}

type Translate = ReturnType<typeof useTranslations<'admin'>>;

const suspension = (t: Translate, username: string | null): Omit<Pending, 'id' | 'run'> => ({
  title: username ? t('confirm.suspendTitle', { username }) : t('confirm.suspendTitleUnknown'),
  message: t('confirm.suspendMessage'),
  confirmLabel: t('confirm.suspend'),
});

/** What the admin confirms before a report's action: removing the content, or suspending its author. */
function confirmationOf(
  t: Translate,
  report: Report,
  action: 'removeContent' | 'suspendUser',
): Omit<Pending, 'id' | 'run'> {
  if (action === 'suspendUser') return suspension(t, reportedUser(report));
  return report.targetType === 'comment'
    ? {
        title: t('confirm.removeCommentTitle'),
        message: t('confirm.removeCommentMessage'),
        confirmLabel: t('confirm.remove'),
      }
    : {
        title: t('confirm.removePostTitle'),
        message: t('confirm.removePostMessage'),
        confirmLabel: t('confirm.remove'),
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
  const t = useTranslations('admin');
  const target = report.target;
  if (!target)
    return (
      <p className="meta">
        {report.targetType === 'post'
          ? t('queue.gonePost')
          : report.targetType === 'comment'
            ? t('queue.goneComment')
            : t('queue.goneUser')}
      </p>
    );
  if (target.type === 'post' || target.type === 'comment') {
    const parts = {
      post: (chunks: ReactNode) => (
        <AppLink href={links.post(target.type === 'post' ? target._id : target.postId)}>{chunks}</AppLink>
      ),
      profile: (chunks: ReactNode) => <AppLink href={links.profile(target.creator)}>{chunks}</AppLink>,
      creator: target.creator,
      message: target.message,
    };
    if (target.type === 'comment') return <p>{t.rich('queue.comment', parts)}</p>;
    return (
      <div className="preview">
        <img src={target.image} alt={target.alt || t('queue.imageAlt', { creator: target.creator })} />
        <p>{t.rich('queue.post', parts)}</p>
      </div>
    );
  }
  const values = {
    username: target.username,
    profile: (chunks: ReactNode) => <AppLink href={links.profile(target.username)}>{chunks}</AppLink>,
  };
  const description = target.description;
  return (
    <p>
      {description
        ? target.suspended
          ? t.rich('queue.userSuspendedDescribed', { ...values, description })
          : t.rich('queue.userDescribed', { ...values, description })
        : target.suspended
          ? t.rich('queue.userSuspended', values)
          : t.rich('queue.user', values)}
    </p>
  );
}

/** A report's line: its reason, who reported it when, and how it was resolved. */
function ReportMeta({ report }: { report: Report }) {
  const t = useTranslations('admin');
  const reasons = useReasonLabels();
  const resolutions: Record<ReportAction, string> = {
    dismiss: t('queue.resolutions.dismiss'),
    removeContent: t('queue.resolutions.removeContent'),
    suspendUser: t('queue.resolutions.suspendUser'),
  };
  const values = {
    reason: reasons[report.reason] ?? report.reason,
    reporter: report.reporter,
    time: () => <RelativeTime iso={report.createdAt} />,
  };
  return (
    <span className="meta">
      {report.resolution
        ? t.rich('queue.reportedResolved', {
            ...values,
            resolution: resolutions[report.resolution] ?? report.resolution,
            resolvedBy: report.resolvedBy ?? '',
          })
        : t.rich('queue.reported', values)}
    </span>
  );
}

/** The queue: the chosen tab's reports, paged, each open one with its actions. */
function Queue() {
  const dispatch = useAppDispatch();
  const t = useTranslations('admin');
  const [status, setStatus] = useState<QueueStatus>('open');
  // `data` keeps the last tab's reports on screen until the new tab's arrive, as before.
  const { data, error: failure, hasNextPage, fetchNextPage, refetch } = useReportQueueInfiniteQuery(status);
  const error = queryError(failure);
  const reports = data?.pages.flatMap((page) => page.items);
  const problem = useAppSelector(selectQueueProblem);
  const [pending, setPending] = useState<Pending | null>(null);
  const act = (report: Report, action: ReportAction) => dispatch(resolveReport({ report, action }));
  const confirm = (report: Report, action: 'removeContent' | 'suspendUser') =>
    setPending({ ...confirmationOf(t, report, action), id: `${report.id} ${action}`, run: () => act(report, action) });
  return (
    <Panel aria-labelledby="admin-queue">
      <h2 id="admin-queue">{t('queue.heading')}</h2>
      <Tabs role="group" aria-label={t('queue.tabs')}>
        {(['open', 'resolved'] as const).map((s) => (
          <Button
            key={s}
            $variant="secondary"
            $size="sm"
            aria-pressed={status === s}
            // The tab on screen pressed again is read again.
            onClick={() => (s === status ? void refetch() : setStatus(s))}
          >
            {s === 'open' ? t('queue.open') : t('queue.resolved')}
          </Button>
        ))}
      </Tabs>
      {(error || problem) && <Problem role="alert">{error ?? problem}</Problem>}
      {reports && reports.length === 0 && <p>{status === 'open' ? t('queue.noOpen') : t('queue.noResolved')}</p>}
      <List>
        {reports?.map((report) => (
          <Item
            key={report.id}
            aria-label={
              report.targetType === 'post'
                ? t('queue.itemPost', { reporter: report.reporter })
                : report.targetType === 'comment'
                  ? t('queue.itemComment', { reporter: report.reporter })
                  : t('queue.itemUser', { reporter: report.reporter })
            }
          >
            <ReportMeta report={report} />
            <TargetPreview report={report} />
            {report.note && <p className="note">“{report.note}”</p>}
            {report.status === 'open' && (
              <div className="actions">
                <Button $variant="secondary" $size="sm" onClick={() => void act(report, 'dismiss')}>
                  {t('queue.dismiss')}
                </Button>
                {report.targetType !== 'user' && (
                  <Button $variant="danger" $size="sm" onClick={() => confirm(report, 'removeContent')}>
                    {report.targetType === 'comment' ? t('queue.removeComment') : t('queue.removePost')}
                  </Button>
                )}
                <Button $variant="danger" $size="sm" onClick={() => confirm(report, 'suspendUser')}>
                  {report.targetType === 'user' ? t('queue.suspendUser') : t('queue.suspendAuthor')}
                </Button>
              </div>
            )}
          </Item>
        ))}
      </List>
      {hasNextPage && (
        <Button $variant="secondary" onClick={() => void fetchNextPage()}>
          {t('queue.more')}
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
  const t = useTranslations('admin');
  const id = useId();
  const [name, setName] = useState('');
  const { user, problem } = useAppSelector(selectLookup);
  const [pending, setPending] = useState<Pending | null>(null);
  return (
    <Panel aria-labelledby="admin-users">
      <h2 id="admin-users">{t('users.heading')}</h2>
      <LookupForm
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) void dispatch(lookupUser(name.trim()));
        }}
      >
        <label htmlFor={`${id}-name`}>
          {t('users.username')}
          <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </label>
        <Button type="submit">{t('users.lookUp')}</Button>
      </LookupForm>
      {problem && <Problem role="alert">{problem}</Problem>}
      {user && (
        <Item as="div" aria-live="polite">
          <p>
            {t.rich('users.summary', {
              username: user.username,
              role: user.role === 'admin' ? t('users.admin') : t('users.member'),
              posts: user.postsCount,
              profile: (chunks) => <AppLink href={links.profile(user.username)}>{chunks}</AppLink>,
              time: () => <RelativeTime iso={user.createdAt} />,
            })}
          </p>
          <p>{user.suspendedAt ? t('users.suspended') : t('users.active')}</p>
          {user.role !== 'admin' && (
            <div className="actions">
              {user.suspendedAt ? (
                <Button $variant="secondary" onClick={() => void dispatch(unsuspendUser(user.username))}>
                  {t('users.unsuspend')}
                </Button>
              ) : (
                <Button
                  $variant="danger"
                  onClick={() =>
                    setPending({
                      ...suspension(t, user.username),
                      id: `suspend ${user.username}`,
                      run: () => dispatch(suspendUser(user.username)),
                    })
                  }
                >
                  {t('users.suspend')}
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
/** One entry of the log: who did what to what, when. */
function LogEntry({ entry }: { entry: AdminLogEntry }) {
  const t = useTranslations('admin');
  const values = {
    name: (chunks: ReactNode) => <strong>{chunks}</strong>,
    admin: entry.admin,
    time: () => <RelativeTime iso={entry.createdAt} />,
    targetType: entry.targetType,
    target: entry.target,
  };
  // Each action's sentence named whole, so the catalogue test sees every key used.
  const sentences: Record<string, () => ReactNode> = {
    dismiss: () => t.rich('log.dismiss', values),
    removeContent: () => t.rich('log.removeContent', values),
    suspendUser: () => t.rich('log.suspendUser', values),
    unsuspendUser: () => t.rich('log.unsuspendUser', values),
    silenceDomain: () => t.rich('log.silenceDomain', values),
    suspendDomain: () => t.rich('log.suspendDomain', values),
    unblockDomain: () => t.rich('log.unblockDomain', values),
    hideFromTrends: () => t.rich('log.hideFromTrends', values),
    showInTrends: () => t.rich('log.showInTrends', values),
  };
  const sentence = Object.hasOwn(sentences, entry.action)
    ? sentences[entry.action]()
    : t.rich('log.other', { ...values, action: entry.action });
  return <span>{sentence}</span>;
}

function Log() {
  const dispatch = useAppDispatch();
  const t = useTranslations('admin');
  const { page, error } = useAppSelector(selectLog);
  return (
    <Panel aria-labelledby="admin-log">
      <h2 id="admin-log">{t('log.heading')}</h2>
      {error && <Problem role="alert">{error}</Problem>}
      {page && page.items.length === 0 && <p>{t('log.empty')}</p>}
      <List>
        {page?.items.map((entry) => (
          <Item key={entry.id}>
            <LogEntry entry={entry} />
            {entry.note && <p className="note">{entry.note}</p>}
          </Item>
        ))}
      </List>
      {page?.next && (
        <Button $variant="secondary" onClick={() => void dispatch(fetchMoreLog())}>
          {t('log.more')}
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
