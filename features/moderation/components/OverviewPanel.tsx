import styled from 'styled-components';
import { useFormatter, useTranslations } from 'use-intl/react';
import type { AdminOverview } from '../../../lib/types';
import { Panel } from '../../../components/ui/Panel';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { appTheme } from '../../../themes';
import { useAppSelector } from '../../../store/hooks';
import { selectOverview } from '../state/adminSlice';

const Figures = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(140px, 1fr));
  gap: 12px;
  margin: 12px 0 20px;
  div {
    padding: 12px;
    border: 1px solid ${appTheme.color.border};
    border-radius: ${appTheme.radius.md};
    background: ${appTheme.color.surfaceRaised};
  }
  dt { font-size: 13px; color: ${appTheme.color.textMuted}; }
  dd { margin: 4px 0 0; font-size: 22px; font-weight: 700; }
  dd small { display: block; font-size: 13px; font-weight: 400; color: ${appTheme.color.textMuted}; }
`;

const Chart = styled.figure`
  margin: 0 0 20px;
  svg { display: block; width: 100%; height: 120px; }
  .posts { fill: ${appTheme.color.accent}; }
  .comments { fill: ${appTheme.color.textMuted}; }
  .base { stroke: ${appTheme.color.border}; stroke-width: 1; }
  figcaption { display: grid; gap: 6px; margin-top: 4px; font-size: 13px; color: ${appTheme.color.textMuted}; }
  .axis { display: flex; justify-content: space-between; gap: 8px; }
  .legend { display: flex; flex-wrap: wrap; gap: 12px; }
  .swatch { display: inline-block; width: 10px; height: 10px; margin-inline-end: 4px; border-radius: 2px; }
  .swatch.posts { background: ${appTheme.color.accent}; }
  .swatch.comments { background: ${appTheme.color.textMuted}; }
`;

const Instances = styled.ul`
  display: grid;
  gap: 6px;
  margin: 8px 0 0;
  padding: 0;
  list-style: none;
  font-size: 14px;
  li { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; overflow-wrap: anywhere; }
  .dot { width: 10px; height: 10px; border-radius: 50%; flex: none; }
  .healthy { background: ${appTheme.color.success}; }
  .unhealthy { background: ${appTheme.color.danger}; }
  .meta { color: ${appTheme.color.textMuted}; }
`;

const Problem = styled.p`
  margin: 0;
  color: ${appTheme.color.danger};
`;

/** 1234567 -> "1.2 MB" (decimal units, as disks are sold). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} ${units[0]}` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A day of the chart (UTC), in the page's language. */
function useDayLabel() {
  const format = useFormatter();
  return (day: string) =>
    format.dateTime(new Date(`${day}T00:00:00Z`), { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** Posts and comments per day as pairs of bars, scaled to the busiest day; plain SVG, no chart library. */
function ActivityChart({ activity }: { activity: AdminOverview['activity'] }) {
  const t = useTranslations('admin');
  const dayLabel = useDayLabel();
  const max = Math.max(1, ...activity.flatMap((d) => [d.posts, d.comments]));
  const posts = activity.reduce((sum, d) => sum + d.posts, 0);
  const comments = activity.reduce((sum, d) => sum + d.comments, 0);
  const slot = 10;
  const height = 100;
  const bar = (value: number) => (value / max) * (height - 4);
  return (
    <Chart>
      <svg
        viewBox={`0 0 ${activity.length * slot} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t('overview.chart', { days: activity.length, posts, comments })}
      >
        {activity.map((d, i) => (
          <g key={d.day}>
            <title>{t('overview.day', { day: dayLabel(d.day), posts: d.posts, comments: d.comments })}</title>
            <rect className="posts" x={i * slot + 1} y={height - bar(d.posts)} width={4} height={bar(d.posts)} />
            <rect
              className="comments"
              x={i * slot + 5}
              y={height - bar(d.comments)}
              width={4}
              height={bar(d.comments)}
            />
          </g>
        ))}
        <line className="base" x1={0} x2={activity.length * slot} y1={height - 0.5} y2={height - 0.5} />
      </svg>
      <figcaption>
        <span className="axis">
          <span>{activity.length > 0 && dayLabel(activity[0].day)}</span>
          <span>{t('overview.today')}</span>
        </span>
        <span className="legend">
          <span>
            <span className="swatch posts" aria-hidden="true" />
            {t('overview.postsLegend', { count: posts })}
          </span>
          <span>
            <span className="swatch comments" aria-hidden="true" />
            {t('overview.commentsLegend', { count: comments })}
          </span>
        </span>
      </figcaption>
    </Chart>
  );
}

/** The figures at the top of the admin page: people, activity, reports, media, queues, instances. */
export function OverviewPanel() {
  const { data, error } = useAppSelector(selectOverview);
  const t = useTranslations('admin');
  return (
    <Panel aria-labelledby="admin-overview">
      <h2 id="admin-overview">{t('overview.heading')}</h2>
      {error && <Problem role="alert">{error}</Problem>}
      {data && (
        <>
          <Figures>
            <div>
              <dt>{t('overview.people')}</dt>
              <dd>
                {data.people.total}
                <small>
                  {t('overview.peopleDetail', {
                    active: data.people.active30d,
                    joined: data.people.signedUpThisWeek,
                  })}
                </small>
              </dd>
            </div>
            <div>
              <dt>{t('overview.openReports')}</dt>
              <dd>{data.openReports}</dd>
            </div>
            <div>
              <dt>{t('overview.media')}</dt>
              <dd>{formatBytes(data.mediaBytes)}</dd>
            </div>
            <div>
              <dt>{t('overview.queues')}</dt>
              <dd>
                {data.queues.imageJobs.running + data.queues.imageJobs.queued}
                <small>
                  {t('overview.queuesDetail', {
                    queued: data.queues.imageJobs.queued,
                    mails: data.queues.mailOutbox,
                  })}
                </small>
              </dd>
            </div>
          </Figures>
          <h3>{t('overview.activity')}</h3>
          <ActivityChart activity={data.activity} />
          <h3>{t('overview.instances')}</h3>
          <Instances>
            {data.instances.map((instance) => (
              <li key={instance.id}>
                <span className={`dot ${instance.healthy ? 'healthy' : 'unhealthy'}`} aria-hidden="true" />
                <strong>{instance.id}</strong>
                <span>
                  {instance.healthy
                    ? t('overview.healthy')
                    : instance.database === 'down'
                      ? t('overview.databaseDown')
                      : t('overview.notHeard')}
                </span>
                <span className="meta">
                  {instance.self
                    ? t.rich('overview.lastHeardSelf', { time: () => <RelativeTime iso={instance.lastSeen} /> })
                    : t.rich('overview.lastHeard', { time: () => <RelativeTime iso={instance.lastSeen} /> })}
                </span>
              </li>
            ))}
          </Instances>
        </>
      )}
    </Panel>
  );
}
