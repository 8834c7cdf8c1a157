/**
 * Every limit of the interface specification, as named constants.
 * quotas.json, the validators and the domain all read these; nothing else
 * spells a limit as a literal. Units are in the names.
 */

// Request body
export const MAX_BODY_BYTES = 5_242_880;
// A body refused for its size is read and dropped up to this much more (and this long) before the 413 goes out, so
// the client reads the answer instead of a reset; past either bound the connection is cut.
export const REFUSED_BODY_DRAIN_BYTES = MAX_BODY_BYTES;
export const REFUSED_BODY_DRAIN_MS = 5_000;

// Per-board quotas (same for browser, REST and MCP)
export const MAX_TEXT_NODES = 500; // texts and links together
export const MAX_TEXT_CHARS = 100_000;
export const MAX_IMAGES = 50;
export const MAX_IMAGE_BYTES = 921_600; // decoded bytes of one image (900 KiB)
export const MAX_IMAGE_BYTES_TOTAL = 10_485_760; // decoded bytes of all images on a board (10 MB)
export const MAX_STROKES = 2_000;
export const MAX_COLUMNS = 200;
export const MAX_COLUMNS_PER_LANE = 20;
export const MAX_LANES = 10;
export const MAX_TASKS = 1_000;
export const MAX_TASK_CONTENT_CHARS = 20_000;
export const MAX_SHAPES = 1_000; // the shapes extension of the contract
export const MAX_FRAMES = 50;

// Field limits
export const MAX_AUTHOR_CHARS = 80;
export const MAX_THUMBNAIL_CHARS = 8_000;
export const MIN_TEXT_WIDTH_PX = 160;
export const MAX_TEXT_WIDTH_PX = 4_096;
export const MIN_COLUMN_WIDTH_PX = 200;
export const MAX_COLUMN_WIDTH_PX = 480;
export const DEFAULT_COLUMN_WIDTH_PX = 280;
export const MAX_LANE_TITLE_CHARS = 200;
export const MAX_COLUMN_TITLE_CHARS = 200;
export const MAX_BOARD_TITLE_CHARS = 200;
export const MAX_TASK_NAME_CHARS = 500;
export const MAX_ASSIGNEE_CHARS = 200;
export const STROKE_WIDTH_PX = 3;
export const MAX_IMAGE_SIDE_PX = 16_384;
export const MIN_SHAPE_SIDE_PX = 4;
export const MIN_FRAME_SIDE_PX = 40;
export const MAX_SHAPE_SIDE_PX = 20_000; // shapes and frames
export const MAX_SHAPE_LABEL_CHARS = 10_000;
export const MAX_FRAME_TITLE_CHARS = 200;
export const MAX_STROKE_LABEL_CHARS = 200;

// Limits the specification leaves open; chosen here and documented in docs/choices.md
export const MAX_STROKE_POINTS = 10_000;
export const MAX_COORDINATE = 1_000_000_000; // |x| and |y| on the infinite canvas
export const MAX_URL_CHARS = 2_048;
export const MAX_ITEM_ID_CHARS = 128;
export const MAX_TASK_DESCRIPTION_CHARS = 20_000;

// Operation and import limits
export const MAX_RECOLOR_ITEMS = 500;
export const MAX_BATCH_OPS = 500;
export const WS_CONTINUATION_MAX_FRAMES = 500;
export const WS_CONTINUATION_IDLE_MS = 500;
export const MAX_IMPORT_ITEMS = 2_550;
export const MAX_IMPORT_LANE_TITLES = 10;
export const MAX_IMPORT_BATCH_STATEMENTS = 320;
export const MAX_IMPORT_BOUND_PARAMETERS = 100;

// View-only links (docs/sharing.md)
export const MAX_VIEW_LINKS = 20;
export const MAX_VIEW_LINK_LABEL_CHARS = 80;

// Time
export const TOMBSTONE_RETENTION_DAYS = 30;
export const NOTIFICATION_DEBOUNCE_MS = 3_000;
export const LIVE_BROADCAST_TARGET_MS = 100;
export const WAIT_MIN_TIMEOUT_MS = 1_000;
export const WAIT_MAX_TIMEOUT_MS = 55_000;
export const WAIT_DEFAULT_TIMEOUT_MS = 25_000;

// Rate limits (requests per window)
export const RATE_WINDOW_BOARD_MS = 10_000;
export const RATE_BOARD_STANDARD = 60;
export const RATE_BOARD_TOKEN = 600;
export const RATE_WINDOW_CREATE_MS = 60_000;
export const RATE_CREATE_STANDARD = 5;
export const RATE_CREATE_TOKEN = 50;
export const RATE_WINDOW_WS_MS = 10_000;
export const RATE_WS_FRAMES = 60;
export const RATE_WINDOW_LOCK_MS = 60_000;
export const RATE_LOCK = 5;
export const RETRY_AFTER_SECONDS = 10;

// Wrong access keys (docs/security.md, "Guessing a key"). A client is an IPv4 address or an IPv6 /64.
// Per client and board: the first wrong keys are answered at once; after each further one the client
// waits 2 s, 4 s, 8 s, ... (up to the cap) before another key of its is checked on that board.
export const KEY_FREE_FAILURES = 5;
export const KEY_BACKOFF_FIRST_MS = 2_000;
export const KEY_BACKOFF_MAX_MS = 900_000; // 15 min
export const KEY_FAILURE_MEMORY_MS = 86_400_000; // a client's count on a board is forgotten after a day without a wrong key (or at its right key)
export const KEY_REMEMBERED_WRONG_KEYS = 4; // presenting one of its last wrong keys again is no new guess: checked, never counted
// Per board: this many wrong keys from anyone within the window put the board on alert, which lasts a window
// after the last one that kept the count there; on alert every client has fewer free failures and a longer cap
export const KEY_BOARD_ALERT_FAILURES = 30;
export const KEY_BOARD_ALERT_WINDOW_MS = 600_000;
export const KEY_FREE_FAILURES_ON_ALERT = 1;
export const KEY_BACKOFF_MAX_ON_ALERT_MS = 3_600_000; // 1 h
// Per client, all boards together (a guesser that spreads over many boards)
export const KEY_CLIENT_FAILURES = 100;
export const KEY_CLIENT_WINDOW_MS = 3_600_000;
// The most (client, board), board and client records one instance keeps; past it the longest quiet is forgotten first
export const KEY_BUDGET_MAX_RECORDS = 100_000;

// A burst that never settles still notifies at least this often (the spec's debounce alone would wait forever)
export const NOTIFICATION_MAX_WAIT_MS = 10_000;

// Yjs document updates per board on /collab (awareness excluded); over it the connection is closed and the provider reconnects
export const RATE_WINDOW_COLLAB_MS = 10_000;
export const RATE_COLLAB_UPDATES = 600;

// The JSON channel: the largest frame, and how much unsent data a slow reader may hold up before it is dropped
export const MAX_WS_FRAME_BYTES = 5_242_880;
export const MAX_WS_BUFFERED_BYTES = 16_777_216;
// The Yjs channel: the largest message (a first sync of a board full of long texts is large)
export const MAX_COLLAB_MESSAGE_BYTES = 67_108_864;
// Compensated Yjs updates a connection may cause per minute before it is disconnected
export const MAX_COLLAB_REPAIRS_PER_MINUTE = 20;

// Slow and abusive clients
export const HEADERS_TIMEOUT_MS = 10_000; // the request line and headers must arrive within this
export const REQUEST_TIMEOUT_MS = 30_000; // the whole request (a 5 MiB body on a slow link) within this
export const MAX_CONNECTIONS_PER_IP = 256; // open TCP connections from one address (not behind a trusted proxy)
export const MAX_SOCKETS_PER_IP = 128; // open WebSockets (/ws and /collab together) from one client IP

// History (docs/history.md)
export const HISTORY_MAX_VERSIONS = 2_000; // per board; past it the oldest versions go first
export const HISTORY_MAX_BYTES = 52_428_800; // 50 MiB of stored versions per board
export const HISTORY_KEEP_ALL_MS = 86_400_000; // every version of the last 24 hours
export const HISTORY_KEEP_HOURLY_MS = 604_800_000; // then the last of each hour for 7 days
export const HISTORY_KEEP_DAILY_MS = 2_592_000_000; // then the last of each day for 30 days; older ones go
export const HISTORY_MAX_AUTHORS = 20; // authors listed in a version's summary
export const HISTORY_PAGE_DEFAULT = 50;
export const HISTORY_PAGE_MAX = 100;

// MCP reads (docs/mcp.md, "Pages"): the most bytes of JSON text a read answers by default, and an outline
export const READ_PAGE_MAX_BYTES = 16_384;
export const OUTLINE_MAX_BYTES = 4_096;

/** Open MCP `subscriptions/listen` streams one client address may hold on an instance (the SDK caps an instance at 1024). */
export const MAX_LISTENS_PER_IP = 16;
