import { z } from 'zod';
import type { VerbFinding, VerbReport } from './check.js';

/** Output formats of the gate report. */
export const VerbReportFormatSchema = z.enum(['text', 'json', 'github']);
export type VerbReportFormat = z.infer<typeof VerbReportFormatSchema>;

/** Renders a gate report as human text, JSON, or GitHub Actions workflow annotations. */
export function formatVerbReport(report: VerbReport, format: VerbReportFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'github':
      return formatGithub(report);
    default:
      return formatText(report);
  }
}

function where(finding: VerbFinding): string {
  const places = finding.locations.map((l) =>
    l.file ? `${l.file}${l.line ? `:${l.line}${l.column ? `:${l.column}` : ''}` : ''}` : l.source,
  );
  return places.length ? `\n      at ${[...new Set(places)].join('\n      at ')}` : '';
}

function summary(report: VerbReport): string {
  const verdict = report.ok ? 'verb gate passed' : 'verb gate FAILED';
  return `${verdict}: ${report.plannerVerbs.length} planner verb(s), ${report.registryVerbs.length} registered verb(s), ${report.errors} error(s), ${report.warnings} warning(s)`;
}

function formatText(report: VerbReport): string {
  const lines = report.findings.map((f) => `  ${f.severity === 'error' ? 'error  ' : 'warning'} [${f.kind}] ${f.message}${where(f)}`);
  return `${[...lines, summary(report)].join('\n')}\n`;
}

// https://docs.github.com/actions/reference/workflow-commands-for-github-actions#setting-an-error-message
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One annotation per distinct place of a finding (the same verb found twice at one place is one annotation, as in the text form). */
function formatGithub(report: VerbReport): string {
  const out = new Set<string>();
  for (const finding of report.findings) {
    const title = `sinew-verbs ${finding.kind}`;
    const located = finding.locations.filter((l) => l.file !== undefined);
    const targets = located.length ? located : [undefined];
    for (const location of targets) {
      const props = [
        ...(location?.file ? [`file=${escapeProperty(location.file)}`] : []),
        ...(location?.line ? [`line=${location.line}`] : []),
        ...(location?.column ? [`col=${location.column}`] : []),
        `title=${escapeProperty(title)}`,
      ];
      out.add(`::${finding.severity} ${props.join(',')}::${escapeData(finding.message)}`);
    }
  }
  return `${[...out, summary(report)].join('\n')}\n`;
}
