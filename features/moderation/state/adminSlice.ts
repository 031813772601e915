import { createSlice, type WithSlice } from '@reduxjs/toolkit';
import type {
  AdminLogEntry,
  AdminOverview,
  AdminUserInfo,
  DomainBlock,
  DomainSeverity,
  Report,
  ReportAction,
} from '../../../lib/types';
import { errorMessage, type Page } from '../../../services/apiClient';
import { rootReducer, type RootState } from '../../../store/index';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { textOf } from '../../../lib/i18n/appTexts';
import { moderationApi } from './moderationApi';
import { reportsChanged, type QueueStatus } from './moderationQueries';

export type { QueueStatus };

/** A list of the panel: the pages read so far (null before the first answer) and its read error. */
export interface AdminList<T> {
  page: Page<T> | null;
  error: string | null;
  /** The read whose answer counts (a newer one, or another tab of the queue, makes older ones stale). */
  requestId: string | null;
}

/**
 * The admin page's state (issue 23): the user lookup, the log, the overview, the blocked domains
 * (the report queue is RTK Query's: `moderationQueries.ts`).
 * Only the admin panel reads it, so it travels with the panel's chunk and joins the store when that
 * chunk arrives (`injectInto`), not with every page's first load. Errors show in place; the actions toast their outcome (adminToasts).
 */
export interface AdminState {
  /** Why the last action on a report failed. */
  queueProblem: string | null;
  log: AdminList<AdminLogEntry>;
  lookup: { user: AdminUserInfo | null; problem: string | null };
  /** The figures at the top of the page (issue 34), and why they could not be read. */
  overview: { data: AdminOverview | null; error: string | null };
  /** The blocked domains (issue 32), why they could not be read, and why the last change failed. */
  domains: { items: DomainBlock[] | null; error: string | null; problem: string | null };
}

const emptyList = () => ({ page: null, error: null, requestId: null });

const initialState: AdminState = {
  queueProblem: null,
  log: emptyList(),
  lookup: { user: null, problem: null },
  overview: { data: null, error: null },
  domains: { items: null, error: null, problem: null },
};

const admin = (state: RootState): AdminState => injected.selectSlice(state);

export const fetchOverview = createAppAsyncThunk('admin/fetchOverview', async (_: void, { rejectWithValue }) => {
  try {
    return await moderationApi.overview();
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

export const fetchLog = createAppAsyncThunk('admin/fetchLog', async (_: void, { rejectWithValue }) => {
  try {
    return await moderationApi.log();
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

/** The next page of the log, appended to the list on screen. */
export const fetchMoreLog = createAppAsyncThunk(
  'admin/fetchMoreLog',
  async (_: void, { getState, rejectWithValue }) => {
    const { page, requestId } = admin(getState()).log;
    try {
      return { requestId, page: await moderationApi.page<AdminLogEntry>(page?.next as string) };
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
  { condition: (_, { getState }) => Boolean(admin(getState()).log.page?.next) },
);

/** Whom a report is about: the reported user, or the author of the reported content (null: gone). */
export const reportedUser = (report: Report): string | null =>
  report.target?.type === 'user' ? report.target.username : (report.target?.creator ?? null);

/**
 * Dismiss, remove the content, suspend: then the queue, the log and the overview are read again
 * (one action resolves every open report on its target, so the overview's count is read, not guessed).
 */
export const resolveReport = createAppAsyncThunk(
  'admin/resolveReport',
  async ({ report, action }: { report: Report; action: ReportAction }, { dispatch, rejectWithValue }) => {
    try {
      await moderationApi.resolve(report.id, action);
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
    dispatch(reportsChanged());
    void dispatch(fetchLog());
    void dispatch(fetchOverview());
  },
);

/**
 * Looking a user up, suspending or unsuspending them: the lookup shows them, and the log is read
 * again (and the overview after a change: its figures may count them).
 */
function userThunk(type: string, call: (username: string) => Promise<AdminUserInfo>, changes = true) {
  return createAppAsyncThunk(type, async (username: string, { dispatch, rejectWithValue }) => {
    try {
      const user = await call(username);
      void dispatch(fetchLog());
      if (changes) void dispatch(fetchOverview());
      return user;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  });
}

export const lookupUser = userThunk('admin/lookupUser', (username) => moderationApi.lookup(username), false);
export const suspendUser = userThunk('admin/suspendUser', (username) => moderationApi.suspend(username));
export const unsuspendUser = userThunk('admin/unsuspendUser', (username) => moderationApi.unsuspend(username));

export const fetchDomains = createAppAsyncThunk('admin/fetchDomains', async (_: void, { rejectWithValue }) => {
  try {
    return await moderationApi.domains();
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

/** Blocking or unblocking a domain: the list and the log are read again. */
export const blockDomain = createAppAsyncThunk(
  'admin/blockDomain',
  async (input: { domain: string; severity: DomainSeverity }, { dispatch, rejectWithValue }) => {
    try {
      const block = await moderationApi.blockDomain(input.domain, input.severity);
      void dispatch(fetchDomains());
      void dispatch(fetchLog());
      return block;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

export const unblockDomain = createAppAsyncThunk(
  'admin/unblockDomain',
  async (domain: string, { dispatch, rejectWithValue }) => {
    try {
      await moderationApi.unblockDomain(domain);
      void dispatch(fetchDomains());
      void dispatch(fetchLog());
      return domain;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

/** What an action toasts once done (issue 35); failures show in place, as the panel's reads do. */
function resolvedText({ report, action }: { report: Report; action: ReportAction }): string {
  if (action === 'dismiss') return textOf('admin.toasts.reportDismissed');
  if (action === 'removeContent')
    return report.targetType === 'comment' ? textOf('admin.toasts.commentRemoved') : textOf('admin.toasts.postRemoved');
  const username = reportedUser(report);
  if (username) return textOf('admin.toasts.userSuspended', { username });
  return report.targetType === 'comment'
    ? textOf('admin.toasts.commentAuthorSuspended')
    : textOf('admin.toasts.postAuthorSuspended');
}

/** Started by the panel (`useToasts`): this chunk is not in the store's. */
export const adminToasts: ToastListener[] = [
  ...thunkToasts(resolveReport, { error: false, success: resolvedText }),
  ...thunkToasts(suspendUser, {
    error: false,
    success: (username) => textOf('admin.toasts.userSuspended', { username }),
  }),
  ...thunkToasts(unsuspendUser, {
    error: false,
    success: (username) => textOf('admin.toasts.userUnsuspended', { username }),
  }),
  ...thunkToasts(blockDomain, {
    error: false,
    success: (_, block) =>
      block.severity === 'suspend'
        ? textOf('admin.toasts.domainSuspended', { domain: block.domain })
        : textOf('admin.toasts.domainSilenced', { domain: block.domain }),
  }),
  ...thunkToasts(unblockDomain, {
    error: false,
    success: (domain) => textOf('admin.toasts.domainUnblocked', { domain }),
  }),
];

type Rejected = { payload?: string; error: { message?: string } };
const messageOf = (action: Rejected) => action.payload ?? action.error.message ?? null;

const adminSlice = createSlice({
  name: 'admin',
  initialState,
  reducers: {
    /** The panel closed: the next visit starts from the open reports, read afresh. */
    adminCleared: () => initialState,
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchOverview.fulfilled, (state, action) => {
        state.overview = { data: action.payload, error: null };
      })
      .addCase(fetchOverview.rejected, (state, action) => {
        state.overview.error = messageOf(action);
      })
      .addCase(fetchLog.pending, (state, action) => {
        state.log.requestId = action.meta.requestId;
      })
      .addCase(fetchLog.fulfilled, (state, action) => {
        if (state.log.requestId !== action.meta.requestId) return;
        state.log.page = action.payload;
        state.log.error = null;
      })
      .addCase(fetchLog.rejected, (state, action) => {
        if (state.log.requestId === action.meta.requestId) state.log.error = messageOf(action);
      })
      .addCase(fetchMoreLog.fulfilled, (state, action) => {
        const list = state.log;
        // A log read again meanwhile (after an action) starts over: the page is not its.
        if (!list.page || list.requestId !== action.payload.requestId) return;
        list.page = { items: [...list.page.items, ...action.payload.page.items], next: action.payload.page.next };
      })
      .addCase(fetchMoreLog.rejected, (state, action) => {
        state.log.error = messageOf(action);
      })
      .addCase(resolveReport.pending, (state) => {
        state.queueProblem = null;
      })
      .addCase(resolveReport.rejected, (state, action) => {
        state.queueProblem = messageOf(action);
      })
      .addCase(fetchDomains.fulfilled, (state, action) => {
        state.domains.items = action.payload;
        state.domains.error = null;
      })
      .addCase(fetchDomains.rejected, (state, action) => {
        state.domains.error = messageOf(action);
      });
    for (const thunk of [blockDomain, unblockDomain]) {
      builder
        .addCase(thunk.pending, (state) => {
          state.domains.problem = null;
        })
        .addCase(thunk.rejected, (state, action) => {
          state.domains.problem = messageOf(action);
        });
    }
    for (const thunk of [lookupUser, suspendUser, unsuspendUser]) {
      builder
        .addCase(thunk.pending, (state) => {
          state.lookup.problem = null;
        })
        .addCase(thunk.fulfilled, (state, action) => {
          state.lookup.user = action.payload;
        })
        .addCase(thunk.rejected, (state, action) => {
          state.lookup = { user: null, problem: messageOf(action) };
        });
    }
  },
});

declare module '../../../store/index' {
  // Adds `admin` to RootState (optional: present once this chunk has loaded).
  export interface LazyLoadedSlices extends WithSlice<typeof adminSlice> {}
}

const injected = adminSlice.injectInto(rootReducer);

export const { adminCleared } = adminSlice.actions;

export const selectQueueProblem = (state: RootState) => admin(state).queueProblem;
export const selectLog = (state: RootState) => admin(state).log;
export const selectLookup = (state: RootState) => admin(state).lookup;
export const selectOverview = (state: RootState) => admin(state).overview;
export const selectDomains = (state: RootState) => admin(state).domains;
