/** Business constants and limits shared by the client and the server (spec section 9, API.md). */

export const MESSAGE_MAX = 255;
export const TAG_MAX = 30;
export const TAGS_PER_POST_MAX = 20;
export const COMMENT_MAX = 255;
export const DESCRIPTION_MAX = 300;
/** A post image's description: as much as Mastodon allows. */
export const ALT_MAX = 1500;
/** A content warning's text, shown over a sensitive image. */
export const SPOILER_MAX = 100;
/** Photos one post holds (issue 71): `MAX_POST_IMAGES`, 10 unless set, never more than 20. */
export const POST_IMAGES_DEFAULT = 10;
export const POST_IMAGES_CEILING = 20;
/** An admin's or reporter's note. */
export const REPORT_NOTE_MAX = 1000;
/** People one post or comment mentions (links and notifies): the first ones the text names. */
export const MENTIONS_PER_MESSAGE_MAX = 10;

/** Uploads of this many bytes or more are refused. */
export const UPLOAD_MAX_BYTES = 4194304;
/** Largest decoded image accepted, in pixels (pixel-flood guard): 50 megapixels. */
export const UPLOAD_MAX_PIXELS = 50_000_000;
/** Longest side accepted, in pixels: the area alone would let one side be 10,000,000 pixels. */
export const UPLOAD_MAX_SIDE = 16_000;
/** Widest decoded row accepted, in bytes: 16,000 pixels of 8-bit RGB, 12,000 with alpha, 6,000 of 16-bit RGBA. */
export const UPLOAD_MAX_ROW_BYTES = 48_000;
/**
 * Most bytes a decoder may hold at once for an upload it cannot read a few rows at a time. An
 * interlaced (Adam7) PNG is held whole, every pixel (and still costs a wide row's buffers on top):
 * 16 MP of 8-bit RGBA, 8 MP of 16-bit RGBA. A progressive JPEG holds every DCT coefficient, 2 bytes
 * per sample of each colour plane: 33.3 MP at 4:2:0, 16.6 MP at 4:4:4, 12.5 MP of CMYK.
 */
export const UPLOAD_MAX_INTERLACED_PNG_BYTES = 64_000_000;
export const UPLOAD_MAX_PROGRESSIVE_JPEG_BYTES = 100_000_000;
/**
 * Most bytes a decoder that holds a whole image may hold, for formats taken only from other servers:
 * GIF and animated WebP (an RGBA canvas and a frame, counted 10 bytes a pixel: 20 MP) and AVIF
 * (libheif's planes and their conversion, counted 24 bytes a pixel at 8 bits: 8.3 MP, 3840 × 2160).
 */
export const UPLOAD_MAX_WHOLE_DECODE_BYTES = 200_000_000;
/**
 * Seconds libvips may work on one image's decode before it is stopped (sharp's `timeout`), uploads
 * and images from elsewhere alike; the widest accepted upload takes a few seconds on a busy core.
 */
export const IMAGE_TIME_LIMIT_SECONDS = 30;
/** One user's uploads being processed or waiting for their turn, per server process. */
export const UPLOAD_MAX_QUEUED_PER_USER = 4;
/** Longest side at most this many times the shortest (panoramas are about 10:1). */
export const UPLOAD_MAX_ASPECT = 20;
export const UPLOAD_PRESETS = ['avatar', 'post', 'banner'] as const;
export type UploadPreset = (typeof UPLOAD_PRESETS)[number];

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
/** A person elsewhere is kept as `name@host`: at most the column's 300 characters (migration 012). */
export const REMOTE_USERNAME_MAX = 300;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.]+$/;
/** Names a static API path takes: `/api/users/search` wins over `/api/users/{username}`. */
export const RESERVED_USERNAMES = ['search'];
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;

export const PAGE_LIMIT_DEFAULT = 12;
export const PAGE_LIMIT_MAX = 40;

export const TOAST_DEFAULT_MS = 2000;
export const TOAST_AUTH_ERROR_MS = 4000;

export const NAVBAR_HIDE_SCROLL_PX = 30;
export const PROFILE_NAVBAR_TRANSLUCENT_PX = 50;
export const BREAKPOINTS = { sm: 480, md: 768, lg: 1024, xl: 1440 } as const;
export const NAVBAR_HEIGHT_PX = 44;
export const NAVBAR_HEIGHT_LARGE_PX = 58;
export const SEARCH_INPUT_WIDTH_PX = 400;
export const SIDEBAR_MAX_WIDTH_PX = 300;
export const DROPDOWN_WIDTH_PX = 200;
export const POST_FORM_MAX_WIDTH_PX = 530;
export const SCROLL_LOCK_PADDING_PX = 17;
export const MOBILE_WIDTH_THRESHOLD_PX = 600;

export const THEMES = ['darkGray', 'navyBlue', 'dark'] as const;
export type ThemeName = (typeof THEMES)[number];
export const DEFAULT_THEME: ThemeName = 'darkGray';
export const THEME_STORAGE_KEY = 'theme';

/** Issue 76: an imported Mastodon CSV list (follows, blocks, mutes): its size and its rows. */
export const ACCOUNT_LIST_MAX_BYTES = 2 * 1024 * 1024;
export const ACCOUNT_LIST_ROWS_MAX = 10_000;
export const ACCOUNT_LIST_KINDS = ['follows', 'blocks', 'mutes'] as const;
export const ACCOUNT_LIST_MODES = ['merge', 'overwrite'] as const;

/** Other accounts a person may name as theirs (`alsoKnownAs`, issue 76): enough for a few moves. */
export const ACCOUNT_ALIASES_MAX = 5;
/** Longest account address taken for an alias or a move: a handle, or an actor's address. */
export const ACCOUNT_ADDRESS_MAX = 500;
