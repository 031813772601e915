/** The domain's own types, below the services and the HTTP layer. */

/** The signed-in user behind a request's session. */
export interface AuthUser {
  id: string;
  username: string;
  role: 'member' | 'admin';
  sessionId: string;
}

/** One keyset page of a list. */
export interface Page {
  limit: number;
  /** Return items strictly after (older than) this id, or from the newest when null. */
  cursor: string | null;
}
