import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { counterSeries, gaugeSeries, histogramSeries } from '../src/metrics/series.js';

const BUCKETS = [0.005, 0.01, 0.5, 2];

function pair() {
  const registers = [new Registry()];
  const make = (name: string) => new Histogram({ name, help: 'h', labelNames: ['capability', 'version'], buckets: BUCKETS, registers });
  return { direct: make('direct_seconds'), series: make('series_seconds') };
}

async function values(metric: Histogram<string> | Counter<string>) {
  // The two histograms differ only by name: compare the samples with the name taken out.
  return (await metric.get()).values.map((v) => ({ ...v, metricName: (v as { metricName?: string }).metricName?.replace(/^(direct|series)_seconds/, 'x') }));
}

describe('hot-path metric series', () => {
  it('a histogram series reads exactly as the same observations made on prom-client', async () => {
    const { direct, series } = pair();
    const labels = { capability: 'dig', version: '1.0.0' };
    const observed = [0, 0.004, 0.005, 0.0051, 0.3, 1.9, 2, 7, 120, -1];
    const hot = histogramSeries(series, 'dig@1', labels);
    for (const value of observed) {
      direct.observe(labels, value);
      hot.observe(value);
    }
    expect(await values(series)).toEqual(await values(direct));
    // Observations after a read are added to what was read, not lost or counted twice.
    direct.observe(labels, 0.01);
    hot.observe(0.01);
    expect(await values(series)).toEqual(await values(direct));
    expect((await series.get()).values.find((v) => v.metricName === 'series_seconds_count')?.value).toBe(observed.length + 1);
  });

  it('a primed series keeps its counts, and a reset histogram drops what was pending as prom-client drops its counts', async () => {
    const { direct, series } = pair();
    const labels = { capability: 'dig', version: '1.0.0' };
    series.zero(labels);
    direct.zero(labels);
    const hot = histogramSeries(series, 'dig@1', labels);
    hot.observe(0.2);
    direct.observe(labels, 0.2);
    expect(await values(series)).toEqual(await values(direct));
    hot.observe(0.7);
    direct.observe(labels, 0.7);
    series.reset();
    direct.reset();
    hot.observe(3);
    direct.observe(labels, 3);
    expect(await values(series)).toEqual(await values(direct));
  });

  it('a non-finite observation is refused as prom-client refuses it', () => {
    const { series } = pair();
    expect(() => histogramSeries(series, 'x', { capability: 'x', version: '1' }).observe(Number.NaN)).toThrow(/not a valid number/);
  });

  it('a counter series reads as the same increments made on prom-client, in every registry read', async () => {
    const registry = new Registry();
    const counter = new Counter({ name: 'steps_total', help: 'h', labelNames: ['capability', 'outcome'], registers: [registry] });
    const hot = counterSeries(counter, 'dig:ok', { capability: 'dig', outcome: 'ok' });
    for (let i = 0; i < 5; i += 1) hot.inc();
    counter.inc({ capability: 'dig', outcome: 'failed' });
    expect(await registry.metrics()).toContain('steps_total{capability="dig",outcome="ok"} 5');
    hot.inc();
    counter.reset();
    expect(await registry.metrics()).not.toContain('outcome="ok"');
    for (let i = 0; i < 6; i += 1) hot.inc();
    counter.inc({ capability: 'dig', outcome: 'failed' });
    const read = (await counter.get()).values.map(({ value, labels }) => ({ value, outcome: labels.outcome }));
    expect(read.sort((a, b) => a.value - b.value)).toEqual([
      { value: 1, outcome: 'failed' },
      { value: 6, outcome: 'ok' },
    ]);
  });

  it('a gauge series reads as the same moves made on prom-client: the net change, in every read, dropped by a reset', async () => {
    const registry = new Registry();
    const gauge = new Gauge({ name: 'active_steps', help: 'h', registers: [registry] });
    const hot = gaugeSeries(gauge, '', {});
    hot.add(1);
    expect((await gauge.get()).values[0]?.value).toBe(1);
    hot.add(-1);
    hot.add(1);
    hot.add(1);
    expect(await registry.metrics()).toContain('active_steps 2');
    hot.add(1);
    gauge.reset();
    hot.add(-1);
    expect((await gauge.get()).values[0]?.value).toBe(-1);
  });
});
