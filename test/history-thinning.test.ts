/** The retention policy of history.md on plain data: which versions thinning drops. */
import { describe, expect, it } from 'vitest';
import { type RetentionPolicy, type ThinnedVersion, versionsToDrop } from '../board/model/versions.js';
import { RETENTION } from '../host/history/history-recorder.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-31T12:00:00Z');

function versionsAt(ages: number[], bytes = 100): ThinnedVersion[] {
  return ages
    .map((age) => NOW - age)
    .sort((a, b) => a - b)
    .map((time, index) => ({ version: index + 1, at: new Date(time).toISOString(), bytes }));
}

describe('versionsToDrop', () => {
  it('keeps every version of the last 24 hours', () => {
    const versions = versionsAt(Array.from({ length: 200 }, (_, i) => i * 7 * 60_000)); // every 7 min for ~23 h
    expect(versionsToDrop(versions, NOW, RETENTION)).toEqual([]);
  });

  it('keeps the last version of each hour between 1 and 7 days, of each day between 7 and 30, none older', () => {
    const ages = [
      2 * DAY + 10 * 60_000,
      2 * DAY + 20 * 60_000,
      2 * DAY + 30 * 60_000, // one hour: the youngest of them is the hour's last
      10 * DAY + HOUR,
      10 * DAY + 2 * HOUR,
      10 * DAY + 3 * HOUR, // one day (12:00 minus 1..3 h is 09:00..11:00 of one UTC day)
      40 * DAY,
      41 * DAY, // past 30 days
      60_000, // the newest
    ];
    const versions = versionsAt(ages);
    const byAge = (age: number) => versions.find((v) => v.at === new Date(NOW - age).toISOString())!.version;
    const dropped = versionsToDrop(versions, NOW, RETENTION);
    expect(dropped).toEqual(
      [2 * DAY + 20 * 60_000, 2 * DAY + 30 * 60_000, 10 * DAY + 2 * HOUR, 10 * DAY + 3 * HOUR, 40 * DAY, 41 * DAY]
        .map(byAge)
        .sort((a, b) => a - b),
    );
    expect(dropped).not.toContain(byAge(2 * DAY + 10 * 60_000));
    expect(dropped).not.toContain(byAge(10 * DAY + HOUR));
  });

  it('never drops the newest version, however old', () => {
    const versions = versionsAt([90 * DAY, 60 * DAY]);
    expect(versionsToDrop(versions, NOW, RETENTION)).toEqual([1]);
    expect(versionsToDrop(versionsAt([90 * DAY]), NOW, RETENTION)).toEqual([]);
  });

  it('past the version cap, the oldest kept versions go first', () => {
    const policy: RetentionPolicy = { ...RETENTION, maxVersions: 3 };
    const versions = versionsAt([5, 4, 3, 2, 1].map((m) => m * 60_000));
    expect(versionsToDrop(versions, NOW, policy)).toEqual([1, 2]);
  });

  it('past the byte cap, the oldest kept versions go first, never the newest', () => {
    const policy: RetentionPolicy = { ...RETENTION, maxBytes: 250 };
    expect(versionsToDrop(versionsAt([4, 3, 2, 1].map((m) => m * 60_000)), NOW, policy)).toEqual([1, 2]);
    const huge = versionsAt([2 * 60_000, 60_000], 1_000);
    expect(versionsToDrop(huge, NOW, policy)).toEqual([1]);
  });
});
