/**
 * RTK Query for the list screens that only fetch and show (issue 69, item 7): the admin queue, a
 * profile's followers and following, the people search. One `createApi`; each feature adds its
 * endpoints (`queryApi.injectEndpoints` in its `state/…Queries.ts`).
 *
 * The base query calls the app's axios instance (`apiClient`), so its 401 refresh-and-retry
 * interceptor stays the one refresh path. This module joins the store when a screen that uses it
 * loads (reducer injected, middleware added), never with the shared first load (docs/frontend.md).
 */
import type { ThunkDispatch, UnknownAction, WithSlice } from '@reduxjs/toolkit';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import type { AxiosRequestConfig } from 'axios';
import { useDispatch, useStore } from 'react-redux';
import { apiClient, errorMessage, nextLink } from '../services/apiClient';
import { addLazyMiddleware, rootReducer, type RootState } from './index';

/** A request: a URL for a GET, or axios's own config for anything else. */
export type QueryArgs = string | Pick<AxiosRequestConfig, 'url' | 'method' | 'data'>;

/** What every answer carries besides its body: the `Link: rel="next"` cursor of a paged list. */
export interface QueryMeta {
  next: string | null;
}

/** Errors are the message to show (the server's, or a text of the spec), as the thunks' are. */
export const axiosBaseQuery: BaseQueryFn<QueryArgs, unknown, string, object, QueryMeta> = async (args, { signal }) => {
  const config = typeof args === 'string' ? { url: args } : args;
  try {
    const response = await apiClient.request({ ...config, signal });
    return { data: response.data, meta: { next: nextLink(response.headers.link) } };
  } catch (error) {
    return { error: errorMessage(error) };
  }
};

export const queryApi = createApi({
  reducerPath: 'queries',
  baseQuery: axiosBaseQuery,
  tagTypes: ['Report'],
  // The lists are read afresh each time a screen opens (as before RTK Query): nothing is kept.
  keepUnusedDataFor: 0,
  refetchOnMountOrArgChange: true,
  endpoints: () => ({}),
});

declare module './index' {
  // Adds `queries` to RootState (optional: present once a screen using it has loaded).
  export interface LazyLoadedSlices extends WithSlice<typeof queryApi> {}
}

rootReducer.inject(queryApi);
addLazyMiddleware(queryApi.middleware);

/** A page of a list read by the server's cursor, as `getPage` returns it. */
export interface QueryPage<T> {
  items: T[];
  next: string | null;
}

/** For `build.infiniteQuery`: the first page's URL, then each answer's next link. */
export const cursorPages = {
  initialPageParam: '',
  getNextPageParam: (last: QueryPage<unknown>) => last.next ?? undefined,
};

export const toPage = <T>(items: T[], meta: QueryMeta | undefined): QueryPage<T> => ({
  items,
  next: meta?.next ?? null,
});

/**
 * Called first by a screen using RTK Query: a store that has not seen an action since the reducer
 * joined has no `queries` state yet, and RTK Query's selectors complain about that once.
 */
export function useQueryApi(): void {
  const store = useStore();
  if (!(queryApi.reducerPath in (store.getState() as object))) store.dispatch({ type: 'queries/joined' });
}

/** The message of a query's error: the base query's text, or what a thrown error said. */
export function queryError(error: string | { message?: string } | undefined): string | null {
  if (error === undefined) return null;
  return typeof error === 'string' ? error : (error.message ?? 'Something went wrong');
}

/** The store's dispatch for RTK Query's own thunks (`util.updateQueryData`): the `queries` state is there. */
export const useQueryDispatch =
  useDispatch.withTypes<ThunkDispatch<RootState & Required<WithSlice<typeof queryApi>>, unknown, UnknownAction>>();
