/**
 * The browser app's entry. It starts the requests a board's first paint waits
 * for (its meta and, on a first visit, its JSON snapshot: first-paint.ts) and
 * then loads the app (app.ts), so that they download while the app's script,
 * nearly all of its bytes, is fetched and compiled instead of after it.
 * It imports nothing heavier than
 * first-paint.ts needs: no zod, no Yjs.
 */
import './styles.css';
import { boardInHash, opensBoard, prefetchBoard } from './first-paint.js';

const boardId = boardInHash();
if (opensBoard(boardId)) prefetchBoard(boardId);
void import('./app.js');
