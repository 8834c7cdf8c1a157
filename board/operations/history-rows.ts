/** The history rows (docs/history.md): REST has these as routes of their own (GET /versions, /changes, POST /versions/{v}/restore). */
import {
  GetChangesArgs,
  GetChangesResult,
  ListVersionsArgs,
  ListVersionsResult,
  RestoreVersionArgs,
  RestoreVersionResult,
} from '../../schema/index.js';
import { host } from './row.js';

export const HISTORY_ROWS = {
  list_versions: host({
    args: ListVersionsArgs,
    result: ListVersionsResult,
    group: 'history',
    effect: 'read',
    access: 'read',
    tool: { title: 'List versions', description: `Versions newest first, one per burst of edits.` },
  }),
  get_changes: host({
    args: GetChangesArgs,
    onBoard: false,
    result: GetChangesResult,
    group: 'history',
    effect: 'read',
    access: 'read',
    tool: {
      title: 'Get changes',
      description: 'Items added, updated, removed since since_etag (any etag read) or since; new etag.',
    },
  }),
  restore_version: host({
    args: RestoreVersionArgs,
    result: RestoreVersionResult,
    group: 'history',
    effect: 'remove',
    access: 'write',
    tool: { title: 'Restore a version', description: 'Brings a version back as a new edit.' },
  }),
};
