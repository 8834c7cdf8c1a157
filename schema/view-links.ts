/** View-only links (docs/sharing.md): what making, listing and revoking one take and answer, on REST and MCP alike. */
import { z } from 'zod';
import { ItemId, strictObject } from './common.js';
import { MAX_VIEW_LINK_LABEL_CHARS, MAX_VIEW_LINKS } from './limits.js';

export const ViewLinkLabel = z
  .string({ error: 'must be a string' })
  .max(MAX_VIEW_LINK_LABEL_CHARS, { error: `must be at most ${MAX_VIEW_LINK_LABEL_CHARS} characters` })
  .describe('Label');

/** `POST /view-links`'s body. */
export const ViewLinkBody = strictObject({ label: ViewLinkLabel.optional() });

/** A link as its board's editors list it: an id to revoke it by, never its token. */
export const ViewLink = z.object({ id: z.string(), label: z.string().nullable(), created_at: z.string() });
export type ViewLink = z.output<typeof ViewLink>;

/** A link just made: its token, answered this once. */
export const MadeViewLink = z.object({
  token: z.string(),
  url: z.string(),
  label: z.string().nullable(),
  created_at: z.string(),
  id: z.string(),
});

export const ViewLinkList = z.object({ links: z.array(ViewLink).max(MAX_VIEW_LINKS) });
export const RevokedViewLink = z.object({ ok: z.literal(true), id: z.string() });

/** The view_links tool: one tool for the three, by `action`. */
export const ViewLinksArgs = strictObject({
  action: z.enum(['create', 'list', 'revoke'], { error: 'must be create, list or revoke' }).describe('Do'),
  label: ViewLinkLabel.optional(),
  id: ItemId.optional().describe('Link id (revoke)'),
});
export const ViewLinksResult = z.looseObject({
  token: z.string().optional(),
  url: z.string().optional(),
  links: z.array(ViewLink).optional(),
  ok: z.literal(true).optional(),
});
