'use strict';

const MIN = 60 * 1000;

module.exports = {
  durationMs: 95 * MIN,
  raw: [
    { title: 'Opening Credits', startMs: 0 },
    { title: 'The Lighthouse', startMs: 1 * MIN },
    { title: 'Fog', startMs: 31 * MIN },
    { title: 'The Keeper', startMs: 58 * MIN },
    { title: 'End Credits', startMs: 94 * MIN },
  ],
  MIN,
};
