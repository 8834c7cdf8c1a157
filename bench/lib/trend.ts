/** A series sampled over time, read for a leak: its slope, and its last third against its first. */

export type Point = { minutes: number; value: number };

const mean = (values: number[]) => values.reduce((sum, x) => sum + x, 0) / values.length;

/** The points after the warm-up: the first `fraction` of the run's duration is dropped. */
export function afterWarmup(points: Point[], durationMinutes: number, fraction = 0.1): Point[] {
  return points.filter((point) => point.minutes >= durationMinutes * fraction);
}

/** Least-squares slope, in the series' unit per 10 minutes (NaN under two points or with no spread in time). */
export function slopePer10Minutes(points: Point[]): number {
  const usable = points.filter((point) => Number.isFinite(point.value));
  if (usable.length < 2) return Number.NaN;
  const t = mean(usable.map((point) => point.minutes));
  const v = mean(usable.map((point) => point.value));
  let covariance = 0;
  let variance = 0;
  for (const point of usable) {
    covariance += (point.minutes - t) * (point.value - v);
    variance += (point.minutes - t) ** 2;
  }
  return variance === 0 ? Number.NaN : (covariance / variance) * 10;
}

/** Means of the first and the last third of the points: the run's own baseline and where it ended. */
export function thirds(points: Point[]): { first: number; last: number } {
  const values = points.map((point) => point.value).filter(Number.isFinite);
  const third = Math.max(1, Math.floor(values.length / 3));
  return { first: mean(values.slice(0, third)), last: mean(values.slice(-third)) };
}
