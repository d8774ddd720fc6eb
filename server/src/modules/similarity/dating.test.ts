import { describe, expect, it } from 'vitest';
import { dateOfYear, estimateDate, yearOf } from './dating.js';

describe('estimateDate', () => {
  it('takes the weighted median year and the middle 80 % of the weight, nearer neighbours weighing more', () => {
    const estimate = estimateDate([
      { distance: 1, year: 1218, script: 'Textualis' },
      { distance: 1.1, year: 1220, script: 'Textualis' },
      { distance: 1.2, year: 1225, script: 'Cursiva' },
      { distance: 4, year: 1400, script: 'Cursiva' },
    ]);
    expect(estimate.year).toBe(1220);
    expect(estimate.from).toBe(1218);
    expect(estimate.to).toBe(1225);
    expect(estimate.script).toBe('Textualis');
    expect(estimate.scriptShare!).toBeGreaterThan(0.5);
    expect(estimate.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(estimate.weights[3]!).toBeLessThan(0.001);
  });

  it('does not let a near-copy of the page take all the weight', () => {
    const estimate = estimateDate([
      { distance: 0.00001, year: 1218, script: null },
      { distance: 0.03, year: 1220, script: null },
      { distance: 0.5, year: 1347, script: null },
      { distance: 0.5, year: 1350, script: null },
    ]);
    expect(estimate).toMatchObject({ from: 1218, to: 1220 });
    expect(estimate.weights[1]!).toBeGreaterThan(0.3);
    expect(estimate.weights[2]!).toBeLessThan(0.01);
  });

  it('leaves neighbours without a date out of the date but not of the script', () => {
    const estimate = estimateDate([
      { distance: 0.5, year: null, script: 'Cursiva' },
      { distance: 0.6, year: 1300, script: null },
    ]);
    expect(estimate).toMatchObject({ year: 1300, from: 1300, to: 1300, script: 'Cursiva', scriptShare: 1 });
    expect(estimate.weights).toEqual([0, 1]);
    expect(estimateDate([{ distance: 1, year: null, script: null }])).toMatchObject({ year: null, from: null, to: null, script: null });
  });

  it('reads the year of a date field and writes one back', () => {
    expect(yearOf('1218-05-01')).toBe(1218);
    expect(yearOf(' 987 ')).toBe(987);
    expect(yearOf('about 1200')).toBeNull();
    expect(dateOfYear(987)).toBe('0987-07-01');
  });
});
