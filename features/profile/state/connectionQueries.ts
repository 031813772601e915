/** A profile's followers and following on RTK Query (issue 69, item 7), paged by the server's cursor. */
import { apiUrls } from '../../../lib/apiUrls';
import type { PersonResult } from '../../../lib/types';
import { cursorPages, queryApi, toPage, type QueryPage } from '../../../store/queryApi';
import type { Connection } from './usersApi';

export interface ConnectionsArg {
  username: string;
  kind: Connection;
}

export const connectionQueries = queryApi.injectEndpoints({
  endpoints: (build) => ({
    connections: build.infiniteQuery<QueryPage<PersonResult>, ConnectionsArg, string>({
      infiniteQueryOptions: cursorPages,
      query: ({ queryArg: { username, kind }, pageParam }) => pageParam || `${apiUrls.user(username)}/${kind}`,
      transformResponse: (items: PersonResult[], meta) => toPage(items, meta),
    }),
  }),
});

export const { useConnectionsInfiniteQuery } = connectionQueries;

/** A follower removed from the viewer's own followers (issue 70): they leave the list. */
export const followerRemoved = (arg: ConnectionsArg, personId: string) =>
  connectionQueries.util.updateQueryData('connections', arg, (draft) => {
    for (const page of draft.pages) page.items = page.items.filter((person) => person._id !== personId);
  });

/** A Follow / Following pressed in the list: the listed person shows it (kept if the list renders again). */
export const followChanged = (arg: ConnectionsArg, personId: string, followed: boolean) =>
  connectionQueries.util.updateQueryData('connections', arg, (draft) => {
    for (const page of draft.pages)
      for (const person of page.items) if (person._id === personId) person.followedByMe = followed;
  });
