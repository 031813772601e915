import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as initial from './migrations/001_initial';
import * as homeFeedWalkIndex from './migrations/002_home_feed_walk_index';
import * as notifications from './migrations/003_notifications';
import * as emailTokens from './migrations/004_email_tokens';
import * as accounts from './migrations/005_accounts';
import * as blocksMutes from './migrations/006_blocks_mutes';
import * as moderation from './migrations/007_moderation';
import * as readerReactionsIndex from './migrations/008_reader_reactions_index';
import * as overviewIndex from './migrations/009_overview_index';
import * as federation from './migrations/010_federation';
import * as oauth from './migrations/011_oauth';
import * as remotePeople from './migrations/012_remote_people';
import * as federationSafety from './migrations/013_federation_safety';
import * as commentsByUserAndPost from './migrations/014_comments_by_user_and_post';
import * as domainSilenced from './migrations/015_domain_silenced';
import * as partialNotificationIndexes from './migrations/016_partial_notification_indexes';
import * as fewerBtreesPerWrite from './migrations/017_fewer_btrees_per_write';
import * as remotePictureSources from './migrations/018_remote_picture_sources';
import * as writeSignals from './migrations/019_write_signals';
import * as notificationsReadMarker from './migrations/020_notifications_read_marker';
import * as commentNotificationsByComment from './migrations/021_comment_notifications_by_comment';
import * as remoteUrlsHttpOnly from './migrations/022_remote_urls_http_only';
import * as displayNamesAndProfileFields from './migrations/023_display_names_and_profile_fields';
import * as photoCrop from './migrations/024_photo_crop';
import * as webPushSubscriptions from './migrations/025_web_push_subscriptions';
import * as accountListImports from './migrations/026_account_list_imports';
import * as mediaFocus from './migrations/027_media_focus';
import * as followRequests from './migrations/028_follow_requests';
import * as accountMoves from './migrations/029_account_moves';
import * as writeSignalsPerRow from './migrations/030_write_signals_per_row';
import * as postAudience from './migrations/031_post_audience';
import * as savedPosts from './migrations/032_saved_posts';
import * as postImages from './migrations/033_post_images';
import * as followedTags from './migrations/034_followed_tags';
import * as discovery from './migrations/035_discovery';
import * as instagramImports from './migrations/036_instagram_imports';
import * as postsImports from './migrations/037_posts_imports';
import * as userLanguage from './migrations/038_user_language';
import * as writeSignalsOffTheBus from './migrations/039_write_signals_off_the_bus';
import type { Database } from './schema';

// Listed here, not read from disk, so migrations work the same under tsx, vitest and bundlers.
const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_home_feed_walk_index': homeFeedWalkIndex,
  '003_notifications': notifications,
  '004_email_tokens': emailTokens,
  '005_accounts': accounts,
  '006_blocks_mutes': blocksMutes,
  '007_moderation': moderation,
  '008_reader_reactions_index': readerReactionsIndex,
  '009_overview_index': overviewIndex,
  '010_federation': federation,
  '011_oauth': oauth,
  '012_remote_people': remotePeople,
  '013_federation_safety': federationSafety,
  '014_comments_by_user_and_post': commentsByUserAndPost,
  '015_domain_silenced': domainSilenced,
  '016_partial_notification_indexes': partialNotificationIndexes,
  '017_fewer_btrees_per_write': fewerBtreesPerWrite,
  '018_remote_picture_sources': remotePictureSources,
  '019_write_signals': writeSignals,
  '020_notifications_read_marker': notificationsReadMarker,
  '021_comment_notifications_by_comment': commentNotificationsByComment,
  '022_remote_urls_http_only': remoteUrlsHttpOnly,
  '023_display_names_and_profile_fields': displayNamesAndProfileFields,
  '024_photo_crop': photoCrop,
  '025_web_push_subscriptions': webPushSubscriptions,
  '026_account_list_imports': accountListImports,
  '027_media_focus': mediaFocus,
  '028_follow_requests': followRequests,
  '029_account_moves': accountMoves,
  '030_write_signals_per_row': writeSignalsPerRow,
  '031_post_audience': postAudience,
  '032_saved_posts': savedPosts,
  '033_post_images': postImages,
  '034_followed_tags': followedTags,
  '035_discovery': discovery,
  '036_instagram_imports': instagramImports,
  '037_posts_imports': postsImports,
  '038_user_language': userLanguage,
  '039_write_signals_off_the_bus': writeSignalsOffTheBus,
};

/** Every migration this code knows, oldest first: the last one is the schema version it writes. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
