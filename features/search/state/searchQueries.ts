/** The people search on RTK Query (issue 69, item 7): up to 20 people for what is typed. */
import type { PersonResult } from '../../../lib/types';
import { queryApi } from '../../../store/queryApi';

export const searchQueries = queryApi.injectEndpoints({
  endpoints: (build) => ({
    people: build.query<PersonResult[], string>({
      query: (q) => `/api/users/search?${new URLSearchParams({ q })}`,
    }),
  }),
});

export const { usePeopleQuery } = searchQueries;
