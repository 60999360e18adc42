/**
 * A local OTLP/HTTP receiver for tests: records every request (path, content type, body) and answers
 * 200 with an empty export response, in the encoding the request came in.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpRequest {
  path: string;
  contentType: string;
  body: Buffer;
}

export class OtlpReceiver {
  readonly requests: OtlpRequest[] = [];
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = http.createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const contentType = String(req.headers['content-type'] ?? '');
        receiver.requests.push({ path: req.url ?? '', contentType, body: Buffer.concat(chunks) });
        if (contentType.includes('json')) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The JSON bodies sent to `path` (/v1/traces, /v1/metrics). */
  json(path: string): any[] {
    return this.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString('utf8')));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export interface FlatSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

/** OTLP JSON's attribute list as a plain object (intValue as a number). */
export function attributesOf(list: { key: string; value: Record<string, unknown> }[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list) {
    if ('stringValue' in value) out[key] = value.stringValue;
    else if ('intValue' in value) out[key] = Number(value.intValue);
    else if ('doubleValue' in value) out[key] = Number(value.doubleValue);
    else if ('boolValue' in value) out[key] = value.boolValue;
  }
  return out;
}

export function spansOf(bodies: any[]): FlatSpan[] {
  return bodies.flatMap((b) =>
    (b.resourceSpans ?? []).flatMap((rs: any) =>
      (rs.scopeSpans ?? []).flatMap((ss: any) =>
        (ss.spans ?? []).map((s: any) => ({
          name: s.name,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || undefined,
          attributes: attributesOf(s.attributes),
        })),
      ),
    ),
  );
}

/** The last export of each metric (cumulative temporality: the last holds the totals). */
export function metricsOf(bodies: any[]): Map<string, any> {
  const out = new Map<string, any>();
  for (const b of bodies)
    for (const rm of b.resourceMetrics ?? []) for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) out.set(m.name, m);
  return out;
}

/** A metric's data points with their attributes as plain objects. */
export function pointsOf(metric: any): { attributes: Record<string, unknown>; value: number; count?: number }[] {
  const points = metric?.histogram?.dataPoints ?? metric?.sum?.dataPoints ?? [];
  return points.map((p: any) => ({
    attributes: attributesOf(p.attributes),
    value: p.sum !== undefined ? Number(p.sum) : Number(p.asInt ?? p.asDouble),
    ...(p.count !== undefined ? { count: Number(p.count) } : {}),
  }));
}
