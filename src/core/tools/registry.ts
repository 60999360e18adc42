import type { default as Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { lazyChunk } from '../base/lazyChunks';
import { errorMessage } from '../base/errors';
import { CancelledError } from '../base/cancellation';
import { ToolError, fail, type Tool, type ToolContext, type ToolResult } from './types';

/**
 * The tools offered to the model, with their argument schemas compiled once. `invoke` never throws
 * for anything the model did: unknown tool, broken JSON, schema violations and tool failures all
 * come back as a failed ToolResult with text the model can act on. Only cancellation propagates.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, { tool: Tool<any>; validate: ValidateFunction }>();
  private readonly ajv: Ajv = new (lazyChunk.jsonSchema().Ajv)({ allErrors: true, strict: true, useDefaults: false });
  /** For schemas written elsewhere (MCP servers): other drafts' keywords and unknown formats pass. */
  private lenient: Ajv | undefined;

  constructor(tools: readonly Tool<any>[] = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool<any>): void {
    if (this.tools.has(tool.name)) throw new Error(`tool ${tool.name} registered twice`);
    this.tools.set(tool.name, { tool, validate: tool.foreignSchema ? this.compileForeign(tool.schema) : this.ajv.compile(tool.schema) });
  }

  /** This registry's tools plus a run's own (an MCP server's): a new registry; the compiled schemas are shared. */
  with(extra: readonly Tool<any>[]): ToolRegistry {
    const next = new ToolRegistry();
    for (const [name, entry] of this.tools) next.tools.set(name, entry);
    // Its own lenient compiler, dropped with the run's registry: foreign schemas do not pile up in a long session.
    for (const tool of extra) next.register(tool);
    return next;
  }

  /** A subset by name (a subagent's tools), sharing the compiled schemas. */
  only(names: Iterable<string>): ToolRegistry {
    const next = new ToolRegistry();
    for (const name of names) {
      const entry = this.tools.get(name);
      if (entry) next.tools.set(name, entry);
    }
    return next;
  }

  private compileForeign(schema: Record<string, unknown>): ValidateFunction {
    this.lenient ??= new (lazyChunk.jsonSchema().Ajv)({ allErrors: true, strict: false, validateFormats: false, useDefaults: false });
    try {
      return this.lenient.compile(schema);
    } catch {
      const anything = (() => true) as unknown as ValidateFunction;
      return anything;
    }
  }

  get(name: string): Tool<any> | undefined {
    return this.tools.get(name)?.tool;
  }

  list(): Tool<any>[] {
    return [...this.tools.values()].map((t) => t.tool);
  }

  /** Parses and validates arguments; a string message when they are wrong. */
  check(name: string, args: string | unknown): { ok: true; tool: Tool<any>; args: Record<string, unknown> } | { ok: false; message: string } {
    const entry = this.tools.get(name);
    if (!entry) return { ok: false, message: `unknown tool "${name}". Available tools: ${[...this.tools.keys()].join(', ')}` };
    let parsed: unknown = args;
    if (typeof args === 'string') {
      try {
        parsed = args.trim() === '' ? {} : JSON.parse(args);
      } catch (err) {
        return { ok: false, message: `${name}: arguments are not valid JSON (${errorMessage(err)})` };
      }
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { ok: false, message: `${name}: arguments must be a JSON object` };
    }
    if (!entry.validate(parsed)) return { ok: false, message: `${name}: invalid arguments: ${formatErrors(entry.validate.errors ?? [])}` };
    return { ok: true, tool: entry.tool, args: parsed as Record<string, unknown> };
  }

  async invoke(name: string, args: string | unknown, ctx: ToolContext): Promise<ToolResult> {
    const checked = this.check(name, args);
    if (!checked.ok) return fail(checked.message);
    ctx.signal.throwIfAborted();
    try {
      return await checked.tool.run(checked.args, ctx);
    } catch (err) {
      if (ctx.signal.aborted || err instanceof CancelledError) throw err instanceof CancelledError ? err : new CancelledError();
      if (err instanceof ToolError) return fail(`${name}: ${err.message}`);
      return fail(`${name} failed: ${errorMessage(err)}`);
    }
  }
}

function formatErrors(errors: ErrorObject[]): string {
  return errors
    .map((e) => {
      const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'arguments';
      if (e.keyword === 'additionalProperties') return `unknown argument "${String(e.params.additionalProperty)}"`;
      if (e.keyword === 'required') return `missing required argument "${String(e.params.missingProperty)}"`;
      return `${where} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}
