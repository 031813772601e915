/**
 * Trend scores (issue 73, Explore), pure: what the window's posts, likes and comments make of each
 * post and tag. A person counts once per post whatever they did there (a comment weighs 2, a like
 * 1, both 2), so a hundred likes of one person are a hundred posts with one person each, and a post
 * needs two people to trend: one person cannot make a trend. The sum halves every day of the post's
 * age. A tag sums its people once each (its posts' authors weigh 1, likers and commenters as above),
 * each at the best their posts give them, and needs three. A post's author's own likes and comments
 * count for nothing. The worked example is in docs/api-decisions.md ("Explore").
 */

export const LIKE_WEIGHT = 1;
export const COMMENT_WEIGHT = 2;
/** An author counts in their tag's score as a like would. */
export const AUTHOR_WEIGHT = 1;
export const HALF_LIFE_MS = 24 * 3_600_000;
/** How far back the trends look: posts older than this are out of them. */
export const WINDOW_MS = 72 * 3_600_000;
export const POST_MIN_PEOPLE = 2;
export const TAG_MIN_PEOPLE = 3;

export interface WindowPost {
  id: string;
  creatorId: string;
  /** Epoch ms. */
  createdAt: number;
  /** Tag keys. */
  tags: readonly string[];
}

export interface Interaction {
  postId: string;
  userId: string;
  kind: 'like' | 'comment';
}

export interface PostTrend {
  id: string;
  creatorId: string;
  score: number;
  people: number;
}

/** Uses of a tag on one day (UTC): posts, and their distinct authors. */
export interface TagDay {
  /** Epoch ms of the day's start (UTC). */
  day: number;
  uses: number;
  accounts: number;
}

export interface TagTrend {
  tag: string;
  score: number;
  people: number;
  /** The window's posts with it. */
  posts: number;
  /** Newest day first, `HISTORY_DAYS` of them. */
  history: TagDay[];
}

/** Days a tag's history gives (Mastodon's seven): days before the window show no use. */
export const HISTORY_DAYS = 7;
const DAY_MS = 24 * 3_600_000;

/** What a post's age leaves of a weight: halves every `HALF_LIFE_MS`. */
export const decay = (ageMs: number) => 0.5 ** (Math.max(0, ageMs) / HALF_LIFE_MS);

/** Each person's weight on each post (authors' own left out): the larger of what they did. */
function weightsByPost(posts: readonly WindowPost[], interactions: readonly Interaction[]) {
  const byId = new Map(posts.map((p) => [p.id, p]));
  const weights = new Map<string, Map<string, number>>();
  for (const { postId, userId, kind } of interactions) {
    const post = byId.get(postId);
    if (!post || post.creatorId === userId) continue;
    let people = weights.get(postId);
    if (!people) weights.set(postId, (people = new Map()));
    const weight = kind === 'comment' ? COMMENT_WEIGHT : LIKE_WEIGHT;
    people.set(userId, Math.max(people.get(userId) ?? 0, weight));
  }
  return weights;
}

/** Scores of the posts and tags of the window at `now`, highest first (ties: newest post, tag by name). */
export function trendScores(posts: readonly WindowPost[], interactions: readonly Interaction[], now: number) {
  const weights = weightsByPost(posts, interactions);
  const trendingPosts: PostTrend[] = [];
  // Per tag, each person's best decayed weight, and the tag's posts.
  const tagPeople = new Map<string, Map<string, number>>();
  const tagPosts = new Map<string, WindowPost[]>();
  for (const post of posts) {
    const left = decay(now - post.createdAt);
    const people = weights.get(post.id) ?? new Map<string, number>();
    let sum = 0;
    for (const w of people.values()) sum += w;
    if (people.size >= POST_MIN_PEOPLE)
      trendingPosts.push({ id: post.id, creatorId: post.creatorId, score: sum * left, people: people.size });
    for (const tag of new Set(post.tags)) {
      let best = tagPeople.get(tag);
      if (!best) tagPeople.set(tag, (best = new Map()));
      const put = (userId: string, weight: number) => best.set(userId, Math.max(best.get(userId) ?? 0, weight * left));
      put(post.creatorId, AUTHOR_WEIGHT);
      for (const [userId, weight] of people) put(userId, weight);
      tagPosts.set(tag, [...(tagPosts.get(tag) ?? []), post]);
    }
  }
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const trendingTags: TagTrend[] = [];
  for (const [tag, best] of tagPeople) {
    if (best.size < TAG_MIN_PEOPLE) continue;
    let score = 0;
    for (const w of best.values()) score += w;
    const withTag = tagPosts.get(tag) ?? [];
    const history = Array.from({ length: HISTORY_DAYS }, (_, i) => {
      const day = today - i * DAY_MS;
      const those = withTag.filter((p) => p.createdAt >= day && p.createdAt < day + DAY_MS);
      return { day, uses: those.length, accounts: new Set(those.map((p) => p.creatorId)).size };
    });
    trendingTags.push({ tag, score, people: best.size, posts: withTag.length, history });
  }
  trendingPosts.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  trendingTags.sort((a, b) => b.score - a.score || a.tag.localeCompare(b.tag));
  return { posts: trendingPosts, tags: trendingTags };
}
