/**
 * The dataset as compact typed arrays, generated before anything is written: every counter
 * (followers, following, posts, likes, dislikes, comments) is known up front, so rows go in
 * with their final counts and no UPDATE pass is needed.
 */
import { Rng, Zipf, spreadTimes } from './random';

export interface SeedSizes {
  users: number;
  posts: number;
  /** Follows per user. */
  follows: number;
  /** Post reactions (about 90% likes, 10% dislikes). */
  likes: number;
  comments: number;
  tags: number;
}

export interface Plan {
  sizes: SeedSizes;
  userTimes: Float64Array;
  followers: Int32Array;
  following: Int32Array;
  postsCount: Int32Array;
  /** Follow rows in time order. */
  followFrom: Int32Array;
  followTo: Int32Array;
  followTimes: Float64Array;
  postTimes: Float64Array;
  postCreator: Int32Array;
  /** Tag ranks of post i: postTags[postTagStart[i] .. postTagStart[i+1]). */
  postTagStart: Int32Array;
  postTags: Int32Array;
  likesCount: Int32Array;
  dislikesCount: Int32Array;
  commentsCount: Int32Array;
  reactionPost: Int32Array;
  reactionUser: Int32Array;
  reactionDislike: Uint8Array;
  commentTimes: Float64Array;
  commentPost: Int32Array;
  commentUser: Int32Array;
  /** The post that gets a long comment thread (deep comment pages in the benchmark). */
  hotPost: number;
}

const DAY = 86_400_000;

export function makePlan(rng: Rng, sizes: SeedSizes, until: number): Plan {
  const { users, posts, comments } = sizes;
  if (users < 2) throw new Error('--users must be at least 2');
  const usersFrom = until - 730 * DAY;
  const postsFrom = until - 700 * DAY;
  const userTimes = spreadTimes(rng, users, usersFrom, postsFrom);

  // Follows: everyone follows the same number of people, preferring popular accounts (Zipf over a
  // shuffled popularity ranking), so follower counts are skewed like a real network's.
  const perUser = Math.min(sizes.follows, users - 1);
  const popularity = rng.shuffle(Int32Array.from({ length: users }, (_, i) => i));
  const followeeRank = new Zipf(users, 0.9);
  const followers = new Int32Array(users);
  const following = new Int32Array(users);
  const pairFrom = new Int32Array(users * perUser);
  const pairTo = new Int32Array(users * perUser);
  let pairs = 0;
  const chosen = new Set<number>();
  for (let u = 0; u < users; u++) {
    chosen.clear();
    for (let attempts = 0; chosen.size < perUser && attempts < perUser * 20; attempts++) {
      const v = popularity[followeeRank.sample(rng)];
      if (v !== u) chosen.add(v);
    }
    // Rare fallback when the Zipf head is exhausted: fill from a random walk over everyone.
    for (let v = rng.int(users); chosen.size < perUser; v = (v + 1) % users) if (v !== u) chosen.add(v);
    for (const v of chosen) {
      pairFrom[pairs] = u;
      pairTo[pairs] = v;
      pairs++;
      followers[v]++;
      following[u]++;
    }
  }
  const order = rng.shuffle(Int32Array.from({ length: pairs }, (_, i) => i));
  const followFrom = new Int32Array(pairs);
  const followTo = new Int32Array(pairs);
  for (let i = 0; i < pairs; i++) {
    followFrom[i] = pairFrom[order[i]];
    followTo[i] = pairTo[order[i]];
  }
  const followTimes = spreadTimes(rng, pairs, postsFrom, until);

  // Posts: creators Zipf-skewed (a few prolific accounts), 0–3 tags each from a Zipf-skewed set.
  const postTimes = spreadTimes(rng, posts, postsFrom, until);
  const creatorRanking = rng.shuffle(Int32Array.from({ length: users }, (_, i) => i));
  const creatorRank = new Zipf(users, 0.8);
  const tagRank = new Zipf(sizes.tags, 1.0);
  const postCreator = new Int32Array(posts);
  const postsCount = new Int32Array(users);
  const postTagStart = new Int32Array(posts + 1);
  const tagList: number[] = [];
  for (let p = 0; p < posts; p++) {
    const creator = creatorRanking[creatorRank.sample(rng)];
    postCreator[p] = creator;
    postsCount[creator]++;
    postTagStart[p] = tagList.length;
    const r = rng.next();
    const count = Math.min(sizes.tags, r < 0.15 ? 0 : r < 0.5 ? 1 : r < 0.8 ? 2 : 3);
    const start = tagList.length;
    while (tagList.length - start < count) {
      const t = tagRank.sample(rng);
      if (!tagList.includes(t, start)) tagList.push(t);
    }
  }
  postTagStart[posts] = tagList.length;

  // Reactions: one per (post, user) pair; popular posts (Zipf over a shuffled ranking) get more.
  const postRanking = rng.shuffle(Int32Array.from({ length: posts }, (_, i) => i));
  const reactionRank = new Zipf(posts, 0.7);
  const maxReactions = Math.min(sizes.likes, posts * users);
  const reactionPost = new Int32Array(maxReactions);
  const reactionUser = new Int32Array(maxReactions);
  const reactionDislike = new Uint8Array(maxReactions);
  const likesCount = new Int32Array(posts);
  const dislikesCount = new Int32Array(posts);
  const seen = new Set<number>();
  let reactions = 0;
  for (let attempts = 0; reactions < maxReactions && attempts < maxReactions * 10; attempts++) {
    const post = postRanking[reactionRank.sample(rng)];
    const user = rng.int(users);
    const key = post * users + user;
    if (seen.has(key)) continue;
    seen.add(key);
    reactionPost[reactions] = post;
    reactionUser[reactions] = user;
    const dislike = rng.next() < 0.1;
    reactionDislike[reactions] = dislike ? 1 : 0;
    if (dislike) dislikesCount[post]++;
    else likesCount[post]++;
    reactions++;
  }
  seen.clear();
  // Written in (post, user) order: the primary key's B-tree then grows at its right edge instead
  // of taking millions of random inserts (the slowest part of the seed otherwise).
  const keys = new Float64Array(reactions);
  for (let r = 0; r < reactions; r++) keys[r] = (reactionPost[r] * users + reactionUser[r]) * 2 + reactionDislike[r];
  keys.sort();
  for (let r = 0; r < reactions; r++) {
    reactionDislike[r] = keys[r] % 2;
    const pair = (keys[r] - reactionDislike[r]) / 2;
    reactionUser[r] = pair % users;
    reactionPost[r] = (pair - reactionUser[r]) / users;
  }

  // Comments, in time order; each goes to a post that already exists at that time (mostly recent
  // ones), except that about 4% go to one "hot" post whose thread gets very long.
  const hotPost = Math.floor(posts * 0.2);
  const commentsFrom = posts > 0 ? postTimes[0] + 1 : until;
  const commentTimes = posts > 0 ? spreadTimes(rng, comments, commentsFrom, until) : new Float64Array(0);
  const commentPost = new Int32Array(commentTimes.length);
  const commentUser = new Int32Array(commentTimes.length);
  const commentsCount = new Int32Array(posts);
  const hotShare = posts > 0 ? (0.04 * (until - commentsFrom)) / Math.max(1, until - postTimes[hotPost]) : 0;
  let existing = 0;
  for (let c = 0; c < commentTimes.length; c++) {
    const t = commentTimes[c];
    while (existing < posts && postTimes[existing] < t) existing++;
    let post: number;
    if (existing > hotPost && rng.next() < hotShare) post = hotPost;
    else post = existing - 1 - Math.floor(existing * Math.pow(rng.next(), 3));
    commentPost[c] = post;
    commentUser[c] = rng.int(users);
    commentsCount[post]++;
  }

  return {
    sizes,
    userTimes,
    followers,
    following,
    postsCount,
    followFrom,
    followTo,
    followTimes,
    postTimes,
    postCreator,
    postTagStart,
    postTags: Int32Array.from(tagList),
    likesCount,
    dislikesCount,
    commentsCount,
    reactionPost: reactionPost.subarray(0, reactions),
    reactionUser: reactionUser.subarray(0, reactions),
    reactionDislike: reactionDislike.subarray(0, reactions),
    commentTimes,
    commentPost,
    commentUser,
    hotPost,
  };
}
