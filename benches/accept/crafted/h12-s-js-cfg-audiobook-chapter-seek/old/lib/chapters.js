'use strict';

// Chapter navigation for the audiobook player: maps a playback position to its chapter,
// implements the skip-forward / skip-back buttons, and reports listening progress.

function normalizeChapters(raw) {
  if (!Array.isArray(raw) || raw.length === 0) throw new Error('book has no chapters');
  const chapters = raw
    .map((c, i) => ({ index: i, title: c.title ?? `Chapter ${i + 1}`, startMs: Number(c.startMs) }))
    .sort((a, b) => a.startMs - b.startMs);
  if (chapters[0].startMs !== 0) throw new Error('first chapter must start at 0');
  chapters.forEach((c, i) => { c.index = i; });
  return chapters;
}

// Last chapter whose start is at or before positionMs.
function chapterAt(chapters, positionMs) {
  let lo = 0;
  let hi = chapters.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (chapters[mid].startMs < positionMs) lo = mid;
    else hi = mid - 1;
  }
  return chapters[lo];
}

// Within this many ms of a chapter's start, "back" goes to the previous chapter instead.
const RESTART_WINDOW_MS = 3000;

function skipBack(chapters, positionMs) {
  const current = chapterAt(chapters, positionMs);
  if (positionMs - current.startMs > RESTART_WINDOW_MS || current.index === 0) return current.startMs;
  return chapters[current.index - 1].startMs;
}

function skipForward(chapters, positionMs, durationMs) {
  const current = chapterAt(chapters, positionMs);
  const next = chapters[current.index + 1];
  return next ? next.startMs : durationMs;
}

function progress(chapters, positionMs, durationMs) {
  const current = chapterAt(chapters, positionMs);
  const next = chapters[current.index + 1];
  const chapterEnd = next ? next.startMs : durationMs;
  return {
    chapter: current.index + 1,
    of: chapters.length,
    title: current.title,
    chapterRemainingMs: Math.max(0, chapterEnd - positionMs),
    bookPercent: Math.round((positionMs / durationMs) * 1000) / 10,
  };
}

function formatClock(ms) {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return h ? `${h}:${mmss}` : mmss;
}

module.exports = { normalizeChapters, chapterAt, skipBack, skipForward, progress, formatClock };
