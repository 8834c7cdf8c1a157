/** The machine-readable limits served at /quotas.json, generated from the constants in schema/ so it cannot drift. */
import * as L from '../../schema/limits.js';
import { CLOSE } from './errors.js';

const window = (requests: number, windowMs: number) => ({ requests, windowSeconds: windowMs / 1000 });

export function quotasDocument(options: { rateLimits: boolean }) {
  return {
    version: '1.0.0',
    rateLimits: {
      enabled: options.rateLimits,
      retryAfterSeconds: L.RETRY_AFTER_SECONDS,
      restAndMcpPerBoard: {
        scope: 'board id, per serving instance (soft)',
        standard: window(L.RATE_BOARD_STANDARD, L.RATE_WINDOW_BOARD_MS),
        withImportToken: window(L.RATE_BOARD_TOKEN, L.RATE_WINDOW_BOARD_MS),
      },
      boardCreation: {
        scope: 'client IP; with a valid X-Import-Token one bucket per token',
        routes: ['POST /api/boards', 'GET /todo', 'GET /draw', 'MCP create_board', 'MCP open_board of an unknown id'],
        standard: window(L.RATE_CREATE_STANDARD, L.RATE_WINDOW_CREATE_MS),
        withImportToken: window(L.RATE_CREATE_TOKEN, L.RATE_WINDOW_CREATE_MS),
      },
      websocketFramesPerBoard: {
        scope: 'board id (strong)',
        standard: window(L.RATE_WS_FRAMES, L.RATE_WINDOW_WS_MS),
        withImportToken: window(L.RATE_WS_FRAMES, L.RATE_WINDOW_WS_MS),
      },
      yjsUpdatesPerBoard: {
        scope: `board id, /collab document updates (awareness excluded); over it the socket closes with ${CLOSE.rateLimited.code} and the provider resyncs`,
        standard: window(L.RATE_COLLAB_UPDATES, L.RATE_WINDOW_COLLAB_MS),
      },
      lockOperations: {
        scope: 'client IP',
        routes: ['lock', 'unlock', 'verify-key'],
        standard: window(L.RATE_LOCK, L.RATE_WINDOW_LOCK_MS),
      },
      wrongKeys: {
        scope:
          'client (IPv4 address or IPv6 /64) and board, all surfaces; a client that must wait gets 429 with the exact seconds left and its key is not checked',
        freeFailures: L.KEY_FREE_FAILURES,
        backoffSeconds: { first: L.KEY_BACKOFF_FIRST_MS / 1000, factor: 2, max: L.KEY_BACKOFF_MAX_MS / 1000 },
        forgottenAfterQuietSeconds: L.KEY_FAILURE_MEMORY_MS / 1000,
        repeatedWrongKeysNotCounted: L.KEY_REMEMBERED_WRONG_KEYS,
        boardAlert: {
          scope: 'board, wrong keys from every client',
          failures: L.KEY_BOARD_ALERT_FAILURES,
          windowSeconds: L.KEY_BOARD_ALERT_WINDOW_MS / 1000,
          freeFailures: L.KEY_FREE_FAILURES_ON_ALERT,
          backoffMaxSeconds: L.KEY_BACKOFF_MAX_ON_ALERT_MS / 1000,
        },
        perClient: {
          scope: 'client, all boards together',
          failures: L.KEY_CLIENT_FAILURES,
          windowSeconds: L.KEY_CLIENT_WINDOW_MS / 1000,
        },
      },
    },
    perBoard: {
      textNodes: L.MAX_TEXT_NODES,
      textChars: L.MAX_TEXT_CHARS,
      images: L.MAX_IMAGES,
      imageBytes: L.MAX_IMAGE_BYTES,
      imageBytesTotal: L.MAX_IMAGE_BYTES_TOTAL,
      strokes: L.MAX_STROKES,
      strokePoints: L.MAX_STROKE_POINTS,
      shapes: L.MAX_SHAPES,
      frames: L.MAX_FRAMES,
      columns: L.MAX_COLUMNS,
      columnsPerLane: L.MAX_COLUMNS_PER_LANE,
      lanes: L.MAX_LANES,
      tasks: L.MAX_TASKS,
      taskContentChars: L.MAX_TASK_CONTENT_CHARS,
    },
    fields: {
      authorChars: L.MAX_AUTHOR_CHARS,
      thumbnailBytes: L.MAX_THUMBNAIL_CHARS,
      textWidthPx: { min: L.MIN_TEXT_WIDTH_PX, max: L.MAX_TEXT_WIDTH_PX },
      columnWidthPx: { min: L.MIN_COLUMN_WIDTH_PX, max: L.MAX_COLUMN_WIDTH_PX, default: L.DEFAULT_COLUMN_WIDTH_PX },
      laneTitleChars: L.MAX_LANE_TITLE_CHARS,
      columnTitleChars: L.MAX_COLUMN_TITLE_CHARS,
      boardTitleChars: L.MAX_BOARD_TITLE_CHARS,
      taskNameChars: L.MAX_TASK_NAME_CHARS,
      taskDescriptionChars: L.MAX_TASK_DESCRIPTION_CHARS,
      assigneeChars: L.MAX_ASSIGNEE_CHARS,
      strokeWidthPx: L.STROKE_WIDTH_PX,
      imageSidePx: L.MAX_IMAGE_SIDE_PX,
      shapeSidePx: { min: L.MIN_SHAPE_SIDE_PX, max: L.MAX_SHAPE_SIDE_PX },
      frameSidePx: { min: L.MIN_FRAME_SIDE_PX, max: L.MAX_SHAPE_SIDE_PX },
      shapeLabelChars: L.MAX_SHAPE_LABEL_CHARS,
      frameTitleChars: L.MAX_FRAME_TITLE_CHARS,
      strokeLabelChars: L.MAX_STROKE_LABEL_CHARS,
      urlChars: L.MAX_URL_CHARS,
      itemIdChars: L.MAX_ITEM_ID_CHARS,
      coordinateAbs: L.MAX_COORDINATE,
    },
    operations: {
      maxRecolorItems: L.MAX_RECOLOR_ITEMS,
      maxBatchOps: L.MAX_BATCH_OPS,
      websocketContinuation: { maxFrames: L.WS_CONTINUATION_MAX_FRAMES, idleMs: L.WS_CONTINUATION_IDLE_MS },
    },
    import: {
      maxItems: L.MAX_IMPORT_ITEMS,
      maxLaneTitles: L.MAX_IMPORT_LANE_TITLES,
      maxBatchStatements: L.MAX_IMPORT_BATCH_STATEMENTS,
      maxBoundParametersPerStatement: L.MAX_IMPORT_BOUND_PARAMETERS,
    },
    history: {
      historyMaxVersions: L.HISTORY_MAX_VERSIONS,
      historyMaxBytes: L.HISTORY_MAX_BYTES,
      keepEveryVersionMs: L.HISTORY_KEEP_ALL_MS,
      keepHourlyMs: L.HISTORY_KEEP_HOURLY_MS,
      keepDailyMs: L.HISTORY_KEEP_DAILY_MS,
      maxAuthorsPerVersion: L.HISTORY_MAX_AUTHORS,
      page: { default: L.HISTORY_PAGE_DEFAULT, max: L.HISTORY_PAGE_MAX },
    },
    request: { maxBodyBytes: L.MAX_BODY_BYTES },
    websocket: {
      maxJsonFrameBytes: L.MAX_WS_FRAME_BYTES,
      maxYjsMessageBytes: L.MAX_COLLAB_MESSAGE_BYTES,
      maxBufferedBytesPerClient: L.MAX_WS_BUFFERED_BYTES,
      maxYjsRepairsPerMinute: L.MAX_COLLAB_REPAIRS_PER_MINUTE,
    },
    timing: {
      tombstoneRetentionDays: L.TOMBSTONE_RETENTION_DAYS,
      notificationDebounceMs: L.NOTIFICATION_DEBOUNCE_MS,
      liveBroadcastTargetMs: L.LIVE_BROADCAST_TARGET_MS,
      waitTimeoutMs: { min: L.WAIT_MIN_TIMEOUT_MS, max: L.WAIT_MAX_TIMEOUT_MS, default: L.WAIT_DEFAULT_TIMEOUT_MS },
    },
  };
}
