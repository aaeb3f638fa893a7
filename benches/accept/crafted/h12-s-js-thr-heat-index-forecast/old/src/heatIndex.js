// Heat index for the hourly forecast feed, following the NWS procedure: Steadman's simple
// formula first, the Rothfusz regression once that reaches 80 °F, then the two humidity
// adjustments. Inputs are °C from the model output; the advisory bands are in °F.

const BANDS = [
  { from: 125, label: 'extreme danger' },
  { from: 103, label: 'danger' },
  { from: 90, label: 'extreme caution' },
  { from: 80, label: 'caution' },
];

export const toFahrenheit = (c) => (c * 9) / 5 + 32;
export const toCelsius = (f) => ((f - 32) * 5) / 9;

function steadman(t, rh) {
  return 0.5 * (t + 61.0 + (t - 68.0) * 1.2 + rh * 0.094);
}

function rothfusz(t, rh) {
  return (
    -42.379 +
    2.04901523 * t +
    10.14333127 * rh -
    0.22475541 * t * rh -
    0.00683783 * t * t -
    0.05481717 * rh * rh +
    0.00122874 * t * t * rh +
    0.00085282 * t * rh * rh -
    0.00000199 * t * t * rh * rh
  );
}

export function heatIndexF(t, rh) {
  if (rh < 0 || rh > 100) throw new RangeError(`relative humidity out of range: ${rh}`);
  const simple = steadman(t, rh);
  if ((simple + t) / 2 < 80) return simple;
  let hi = rothfusz(t, rh);
  if (rh < 13 && t >= 80 && t <= 112) {
    hi -= ((13 - rh) / 4) * Math.sqrt((17 - Math.abs(t - 95)) / 17);
  } else if (rh > 85 && t >= 80 && t <= 87) {
    hi += ((rh - 85) / 10) * ((t - 87) / 5);
  }
  return hi;
}

export function heatIndexC(celsius, rh) {
  return toCelsius(heatIndexF(toFahrenheit(celsius), rh));
}

export function advisoryBand(hiF) {
  const band = BANDS.find((b) => hiF >= b.from);
  return band ? band.label : null;
}

export function hourlyAdvisories(hours) {
  return hours.map(({ at, tempC, rh }) => {
    const hiF = heatIndexF(toFahrenheit(tempC), rh);
    return {
      at,
      heatIndexC: Math.round(toCelsius(hiF) * 10) / 10,
      band: advisoryBand(hiF),
    };
  });
}

export function peakAdvisory(hours) {
  const rows = hourlyAdvisories(hours);
  let peak = null;
  for (const row of rows) {
    if (row.band && (!peak || row.heatIndexC > peak.heatIndexC)) peak = row;
  }
  return peak;
}
