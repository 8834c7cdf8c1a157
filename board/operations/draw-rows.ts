/** The rows of a draw board: texts, links, images, strokes, shapes and frames, moved and erased. */
import { z } from 'zod';
import {
  AddFrameResult,
  AddImageResult,
  AddLinkResult,
  AddShapeResult,
  AddTextResult,
  DrawStrokeResult,
  EraseArgs,
  EraseResult,
  FrameInput,
  ImageInput,
  LaidOutText,
  LinkInput,
  MAX_FRAMES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  MAX_SHAPES,
  MAX_STROKE_POINTS,
  MAX_STROKES,
  MAX_TEXT_NODES,
  MoveArgs,
  MoveInput,
  MoveResult,
  ShapeInput,
  StrokeInput,
  TextInput,
} from '../../schema/index.js';
import {
  eraseItem,
  imageResult,
  linkResult,
  moveItem,
  strokeResult,
  upsertImage,
  upsertLink,
  upsertStroke,
  upsertText,
} from '../mutations/draw.js';
import { frameMembers, upsertFrame, upsertShape } from '../mutations/shapes.js';
import { Deleted, del, kindOf, mutation, post, UPSERT, upsertAnswer, upserted, withBox } from './row.js';

export const DRAW_ROWS = {
  add_text: mutation({
    args: TextInput,
    result: AddTextResult,
    group: 'draw',
    effect: 'add',
    rest: [
      post(
        '/texts',
        TextInput,
        'Create a text, or update the one `id` names',
        'the text, with the box it is laid out in (`bbox`)',
        upsertAnswer(LaidOutText),
      ),
    ],
    tool: {
      title: 'Add a text',
      description: `Markdown-like text; a \`\`\`mermaid block is a diagram. ${MAX_TEXT_NODES} per board. Answers its laid-out bbox. ${UPSERT}`,
    },
    mutate: (w, args) => {
      const text = upsertText(w, args);
      return upserted(args, withBox(w, text, text));
    },
  }),
  add_link: mutation({
    args: LinkInput,
    result: AddLinkResult,
    group: 'draw',
    effect: 'add',
    rest: [
      post(
        '/links',
        LinkInput,
        'Create a link pill, or update the one `id` names',
        'the link, with the box it is laid out in (`bbox`)',
      ),
    ],
    tool: { title: 'Add a link', description: `A link pill. Answers its laid-out bbox. ${UPSERT}` },
    mutate: (w, args) => {
      const link = upsertLink(w, args);
      return upserted(args, withBox(w, linkResult(link), link));
    },
  }),
  add_image: mutation({
    args: ImageInput,
    result: AddImageResult,
    group: 'draw',
    effect: 'add',
    rest: [post('/images', ImageInput, 'Create an image, or update the one `id` names', 'the image')],
    tool: {
      title: 'Add an image',
      description: `An image from a data URL (no http), max ${MAX_IMAGE_BYTES / 1024} kB; ${MAX_IMAGES} per board. ${UPSERT}`,
    },
    mutate: (w, args) => upserted(args, imageResult(upsertImage(w, args))),
  }),
  draw_stroke: mutation({
    args: StrokeInput,
    result: DrawStrokeResult,
    group: 'draw',
    effect: 'add',
    // `lines` is the older name of `strokes` on REST.
    rest: [
      post('/strokes', StrokeInput, 'Create a stroke, or update the one `id` names', 'the stroke'),
      post('/lines', StrokeInput, 'Alias of /strokes', 'the stroke'),
    ],
    tool: {
      title: 'Draw a stroke',
      description: `A stroke, up to ${MAX_STROKE_POINTS} points; ${MAX_STROKES} per board. ${UPSERT}`,
    },
    mutate: (w, args) => upserted(args, strokeResult(upsertStroke(w, args))),
  }),
  add_shape: mutation({
    args: ShapeInput,
    result: AddShapeResult,
    group: 'draw',
    effect: 'add',
    rest: [post('/shapes', ShapeInput, 'Create a shape, or update the one `id` names', 'the shape')],
    tool: {
      title: 'Add a shape',
      description: `An outline with a label; a stroke's anchor of kind shape ends on it. ${MAX_SHAPES} per board. ${UPSERT}`,
    },
    mutate: (w, args) => upserted(args, upsertShape(w, args)),
  }),
  add_frame: mutation({
    args: FrameInput,
    result: AddFrameResult,
    group: 'draw',
    effect: 'add',
    rest: [post('/frames', FrameInput, 'Create a frame, or update the one `id` names', 'the frame and its members')],
    tool: {
      title: 'Add a frame',
      description: `A titled area; a move carries the items wholly inside. ${MAX_FRAMES} per board. ${UPSERT}`,
    },
    mutate: (w, args) => {
      const frame = upsertFrame(w, args);
      return { ...upserted(args, frame), members: frameMembers(w.maps, w.textSize, frame).map((member) => member.id) };
    },
  }),
  move: mutation({
    args: MoveArgs,
    result: MoveResult,
    group: 'draw',
    effect: 'set',
    rest: [
      post(
        '/:kind/:itemId/move',
        MoveInput,
        'Move an item (strokes: their bounding box top-left; a frame: with its members)',
        'where it is',
      ),
    ],
    tool: { title: 'Move an item', description: 'Moves an item (its top-left) to x, y.' },
    mutate: (w, args) => moveItem(w, args.kind ?? kindOf(w, args.id), args.id, args),
  }),
  erase: mutation({
    args: EraseArgs,
    result: EraseResult,
    group: 'draw',
    effect: 'remove',
    rest: [del('/:kind/:itemId', 'Erase an item', 'erased', Deleted.extend({ kind: z.string() }))],
    tool: {
      title: 'Erase an item',
      description: 'Deletes a text, link, stroke, image, shape or frame (not its members).',
    },
    mutate: (w, args) => eraseItem(w, args.kind ?? kindOf(w, args.id), args.id),
  }),
};
