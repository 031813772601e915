/** The admin overview (`GET /api/admin/overview`): people, activity, reports, media, queues, instances. */
import type { AdminOverview } from '../../lib/types';
import type { InstanceStatus } from '../../lib/types';
import type { OverviewRepository } from './repository';

const DAY_MS = 86_400_000;
export const ACTIVITY_DAYS = 30;

export interface OverviewService {
  overview(): Promise<AdminOverview>;
}

export function overviewService(deps: {
  data: OverviewRepository;
  /** The upload jobs (`media/pipeline.ts`) and the mail outbox of this instance. */
  queues: () => { imageJobs: { running: number; queued: number }; mailOutbox: number };
  instances: () => Promise<InstanceStatus[]>;
  now?: () => number;
}): OverviewService {
  const now = deps.now ?? Date.now;
  return {
    async overview() {
      const at = now();
      // The chart's first day starts at UTC midnight, 29 days before today.
      const firstDay = Math.floor(at / DAY_MS) * DAY_MS - (ACTIVITY_DAYS - 1) * DAY_MS;
      const [total, active30d, signedUpThisWeek, posts, comments, openReports, mediaBytes, instances] =
        await Promise.all([
          deps.data.countPeople(),
          deps.data.countActiveSince(at - 30 * DAY_MS),
          deps.data.countSignedUpSince(at - 7 * DAY_MS),
          deps.data.perDaySince('posts', firstDay),
          deps.data.perDaySince('comments', firstDay),
          deps.data.countOpenReports(),
          deps.data.sumMediaBytes(),
          deps.instances(),
        ]);
      const activity = Array.from({ length: ACTIVITY_DAYS }, (_, i) => {
        const day = new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10);
        return { day, posts: posts.get(day) ?? 0, comments: comments.get(day) ?? 0 };
      });
      return {
        people: { total, active30d, signedUpThisWeek },
        activity,
        openReports,
        mediaBytes,
        queues: deps.queues(),
        instances: instances.map(({ id, healthy, lastSeen, startedAt, database, self }) => ({
          id,
          healthy,
          lastSeen,
          startedAt,
          database,
          self,
        })),
      };
    },
  };
}
