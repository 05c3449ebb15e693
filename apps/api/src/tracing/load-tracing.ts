import { Tracing, TracingConfig } from './tracing';

/**
 * The process's tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, else undefined. The
 * OpenTelemetry modules are required only then: with tracing off (the default) the process never
 * loads them, and what a request pays is a check that no trace was recorded for it.
 */
export function tracingFor(config: TracingConfig): Tracing | undefined {
  if (config.endpoint === null) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, see above
  const otel = require('./open-telemetry-tracing') as {
    OpenTelemetryTracing: { exportingOverHttp(endpoint: string, serviceName: string): Tracing };
  };
  return otel.OpenTelemetryTracing.exportingOverHttp(config.endpoint, config.serviceName);
}
