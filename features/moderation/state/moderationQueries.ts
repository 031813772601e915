/** The report queue on RTK Query (issue 69, item 7): one list per tab, paged by the server's cursor. */
import type { Report } from '../../../lib/types';
import { cursorPages, queryApi, toPage, type QueryPage } from '../../../store/queryApi';

export type QueueStatus = 'open' | 'resolved';

export const moderationQueries = queryApi.injectEndpoints({
  endpoints: (build) => ({
    reportQueue: build.infiniteQuery<QueryPage<Report>, QueueStatus, string>({
      infiniteQueryOptions: cursorPages,
      query: ({ queryArg, pageParam }) => pageParam || `/api/admin/reports?status=${queryArg}`,
      transformResponse: (items: Report[], meta) => toPage(items, meta),
      // An action on a report (resolveReport) invalidates it: the queue is read again.
      providesTags: ['Report'],
    }),
  }),
});

export const { useReportQueueInfiniteQuery } = moderationQueries;

/** After an action on a report: every queue on screen is read again. */
export const reportsChanged = () => moderationQueries.util.invalidateTags(['Report']);
