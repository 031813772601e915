/** Every repository, on the database or on one transaction (`context.ts` makes `data` of them). */
import { accountRepository } from './users/accountRepository';
import { commentsRepository } from './comments/repository';
import { emailTokensRepository } from './auth/emailTokens';
import { mentionsRepository } from './mentions/repository';
import { moderationRepository } from './moderation/repository';
import { notificationsRepository } from './notifications/repository';
import { oauthRepository } from './oauth/repository';
import { postsRepository } from './posts/repository';
import { reactionsRepository } from './reactions/repository';
import { safetyRepository } from './safety/repository';
import { sessionsRepository } from './auth/repository';
import { tombstonesRepository } from './users/tombstones';
import { twoFactorRepository } from './auth/twoFactorRepository';
import { usersRepository } from './users/repository';
import type { Queryable } from './db/schema';

export const repositories = (db: Queryable) => ({
  posts: postsRepository(db),
  users: usersRepository(db),
  comments: commentsRepository(db),
  sessions: sessionsRepository(db),
  emailTokens: emailTokensRepository(db),
  reactions: reactionsRepository(db),
  notifications: notificationsRepository(db),
  mentions: mentionsRepository(db),
  twoFactor: twoFactorRepository(db),
  account: accountRepository(db),
  safety: safetyRepository(db),
  moderation: moderationRepository(db),
  oauth: oauthRepository(db),
  tombstones: tombstonesRepository(db),
});
