// Charts drawn on the server as inline SVG (no script, nothing the CSP `default-src 'self'`
// refuses: colours are SVG presentation attributes, not inline styles). Each chart has a text
// alternative and a <title> per bar or point, so the numbers stay readable without the picture.
import { type Html, html } from './html.js';
import type { BaseContext } from './layout.js';

const W = 560;
const H = 160;
const PAD = { left: 40, right: 8, top: 8, bottom: 22 };

/** The last `n` calendar days in `zone`, oldest first, as YYYY-MM-DD. */
export function lastDays(n: number, zone: string, now = new Date()): string[] {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const days: string[] = [];
  for (let i = n - 1; i >= 0; i--) days.push(f.format(new Date(now.getTime() - i * 86_400_000)));
  return [...new Set(days)];
}

export interface Series {
  label: string;
  colour: string;
  values: number[];
}

const x = (i: number, n: number) => PAD.left + ((W - PAD.left - PAD.right) * (i + 0.5)) / n;
const y = (v: number, max: number) => H - PAD.bottom - ((H - PAD.top - PAD.bottom) * v) / (max || 1);

/** A day under the axis: `27/11` in Portuguese (day first), `11-27` in English (month first). */
const dayLabel = (lang: BaseContext['lang'], day: string) =>
  lang === 'pt-BR' ? `${day.slice(8, 10)}/${day.slice(5, 7)}` : day.slice(5);

function axes(lang: BaseContext['lang'], days: string[], max: number, unit: string): Html {
  const every = Math.ceil(days.length / 7);
  return html`<line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}" stroke="#888"/>
  <text x="${PAD.left - 4}" y="${PAD.top + 8}" text-anchor="end" font-size="10" fill="#555">${Math.round(max)}${unit}</text>
  <text x="${PAD.left - 4}" y="${H - PAD.bottom}" text-anchor="end" font-size="10" fill="#555">0</text>
  ${days.map((d, i) =>
    i % every === 0
      ? html`<text x="${x(i, days.length)}" y="${H - 6}" text-anchor="middle" font-size="10" fill="#555">${dayLabel(lang, d)}</text>`
      : '',
  )}`;
}

function legend(series: Array<{ label: string; colour: string }>): Html {
  return html`<p class="chart-legend small">${series.map(
    (s) =>
      html`<svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="${s.colour}"/></svg> ${s.label} `,
  )}</p>`;
}

/** Stacked bars per day (counts: successes and failures, sync outcomes…). */
export function stackedBars(ctx: BaseContext, title: string, days: string[], series: Series[]): Html {
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const bw = Math.max(2, ((W - PAD.left - PAD.right) / days.length) * 0.7);
  const bars = days.map((d, i) => {
    let base = 0;
    return series.map((s) => {
      const v = s.values[i] ?? 0;
      if (!v) return '';
      const top = y(base + v, max);
      const bottom = y(base, max);
      base += v;
      return html`<rect x="${x(i, days.length) - bw / 2}" y="${top}" width="${bw}" height="${Math.max(1, bottom - top)}" fill="${s.colour}"><title>${d}: ${v} ${s.label}</title></rect>`;
    });
  });
  const summary = series.map((s) => `${s.values.reduce((a, b) => a + b, 0)} ${s.label}`).join(', ');
  return html`<figure class="chart"><svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${title}: ${ctx.t.charts.overDays(summary, days.length)}">
  ${axes(ctx.lang, days, max, '')}${bars}</svg>${legend(series)}<figcaption class="visually-hidden">${title}</figcaption></figure>`;
}

/** Lines per day (latency percentiles…); a day without data leaves a gap. */
export interface LineSeries {
  label: string;
  colour: string;
  values: Array<number | null>;
}

export function lines(ctx: BaseContext, title: string, days: string[], series: LineSeries[], unit: string): Html {
  const max = Math.max(1, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const paths = series.map((s) => {
    let d = '';
    let pen = false;
    s.values.forEach((v, i) => {
      if (v === null) {
        pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${x(i, days.length).toFixed(1)} ${y(v, max).toFixed(1)} `;
      pen = true;
    });
    const dots = s.values.map((v, i) =>
      v === null
        ? ''
        : html`<circle cx="${x(i, days.length)}" cy="${y(v, max)}" r="2.5" fill="${s.colour}"><title>${days[i]}: ${Math.round(v)}${unit} ${s.label}</title></circle>`,
    );
    return html`<path d="${d.trim()}" fill="none" stroke="${s.colour}" stroke-width="2"/>${dots}`;
  });
  return html`<figure class="chart"><svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${ctx.t.charts.titleOverDays(title, days.length)}">
  ${axes(ctx.lang, days, max, unit)}${paths}</svg>${legend(series)}<figcaption class="visually-hidden">${title}</figcaption></figure>`;
}
