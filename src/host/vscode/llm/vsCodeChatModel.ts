/**
 * VS Code's own models (GitHub Copilot's and any other extension's) behind the core's model port,
 * through the Language Model API: `lm.selectChatModels`, `model.sendRequest` with tools, streamed
 * text and tool-call parts turned into the same ModelStreamEvents and ModelTurn as the
 * OpenAI-compatible client. No key and no endpoint: the extension that serves the model owns both,
 * and VS Code asks the user once whether PatchPilot may use it.
 */
import * as vscode from 'vscode';
import type { ChatModel } from '../../../core/ports';
import type { CompleteRequest } from '../../../core/llm';
import { estimateMessageTokens, estimatePromptTokens, estimateTokens, lookupByModelName, type ContextWindow } from '../../../core/llm';
import { ModelApiError, cancelledError } from '../../../core/llm';
import type { ChatRequest, ModelMessage, ModelRole, ModelStreamEvent, ModelToolCall, ModelTurn, ModelUsage } from '../../../core/llm';
import { admitRequest } from '../../../core/llm';
import { lmError } from './lmErrors';
import { toLmMessages, toLmTools } from './lmMessages';

/** Role markers and separators a message costs beyond its text. */
const MESSAGE_OVERHEAD = 4;

/** Shown by VS Code when it asks the user whether PatchPilot may use a model. */
const JUSTIFICATION = 'PatchPilot sends your goal, the files it reads and the results of its tools to this model to work on your workspace.';

/** The part of `vscode.lm` used here (tests and other hosts pass their own). */
export interface LanguageModels {
  selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]>;
}

export interface VsCodeModelChoice {
  /** The model's id (what Select Model writes to patchpilot.llm.model), or a family; unset: the first model VS Code offers. */
  model?: string;
  fastModel?: string;
  /** patchpilot.llm.contextWindows: the user's window for a model wins over what VS Code reports. */
  contextWindows?: Readonly<Record<string, number>>;
}

/** Where a window came from, in the words the chat and the CLI use ("from VS Code"). */
interface WindowOrigin {
  source: 'setting' | 'endpoint';
  from: string;
  detail: string;
}

export class VsCodeChatModel implements ChatModel {
  /** Prompt tokens of messages already counted (messages never change once built). */
  private readonly counted = new WeakMap<ModelMessage, number>();

  private constructor(
    private readonly models: Record<ModelRole, vscode.LanguageModelChat>,
    private readonly windowSettings: Readonly<Record<string, number>>,
  ) {}

  /** Finds the chosen models now (the loop needs their windows before the first request). */
  static async select(choice: VsCodeModelChoice, lm: LanguageModels = vscode.lm): Promise<VsCodeChatModel> {
    const reasoning = await findModel(lm, choice.model);
    const fast = choice.fastModel ? await findModel(lm, choice.fastModel) : reasoning;
    return new VsCodeChatModel({ reasoning, fast }, choice.contextWindows ?? {});
  }

  modelFor(role: ModelRole): string {
    return this.models[role].id;
  }

  /** The user's setting wins; else the model's input limit as VS Code reports it (the window the prompt must fit). */
  contextWindow(role: ModelRole): ContextWindow {
    const model = this.models[role];
    const set = lookupByModelName(this.windowSettings, model.id);
    if (set !== undefined) {
      const window: ContextWindow & WindowOrigin = {
        tokens: set,
        known: true,
        source: 'setting',
        from: 'your setting',
        detail: 'patchpilot.llm.contextWindows',
      };
      return window;
    }
    const window: ContextWindow & WindowOrigin = { tokens: model.maxInputTokens, known: true, source: 'endpoint', from: 'VS Code', detail: 'maxInputTokens' };
    return window;
  }

  async streamChatWithRecovery(req: ChatRequest): Promise<ModelTurn> {
    const model = this.models[req.role];
    const emit = safeEmitter(req.onEvent);
    if (req.signal?.aborted) throw cancelledError(0);
    // VS Code's models have no price here: only a token budget can refuse the request.
    admitRequest(req, undefined);
    emit({ type: 'request-started', role: req.role, model: model.id, attempt: 1 });
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    let text = '';
    const toolCalls: ModelToolCall[] = [];
    let unknownParts = 0;
    try {
      const options: vscode.LanguageModelChatRequestOptions = { justification: JUSTIFICATION };
      const tools = toLmTools(req.tools);
      if (tools) options.tools = tools;
      const response = await model.sendRequest(toLmMessages(req.messages), options, cancel.token);
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          text += part.value;
          if (part.value) emit({ type: 'text-delta', text: part.value });
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          const call = { id: part.callId, name: part.name, argumentsJson: JSON.stringify(part.input ?? {}) };
          const index = toolCalls.push(call) - 1;
          emit({ type: 'tool-call-started', index, id: call.id, name: call.name });
          emit({ type: 'tool-call-delta', index, id: call.id, argumentsDelta: call.argumentsJson });
        } else unknownParts++;
      }
    } catch (err) {
      throw lmError(err, model.id, req.signal);
    } finally {
      req.signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
    if (req.signal?.aborted) throw cancelledError(1);
    if (!text && !toolCalls.length && unknownParts) {
      // Never a silent empty answer: say that something came that this client cannot read.
      throw new ModelApiError({
        kind: 'server',
        retryable: false,
        message: `the VS Code model "${model.id}" answered only with ${unknownParts} part(s) PatchPilot cannot read (neither text nor tool calls)`,
      });
    }
    const usage = await this.usageOf(model, req, text, toolCalls);
    emit({ type: 'usage', usage });
    req.meter?.record({ role: req.role, model: model.id, usage, cost: undefined });
    return {
      role: req.role,
      model: model.id,
      text,
      toolCalls,
      invalidToolCalls: [],
      finishReason: toolCalls.length ? 'tool_calls' : 'stop',
      rawFinishReason: '',
      usage,
      attempts: 1,
    };
  }

  complete(req: CompleteRequest): Promise<ModelTurn> {
    const messages: ModelMessage[] = [...(req.messages ?? [])];
    if (req.system) messages.unshift({ role: 'system', content: req.system });
    if (req.prompt !== undefined) messages.push({ role: 'user', content: req.prompt });
    return this.streamChatWithRecovery({ role: req.role ?? 'fast', messages, signal: req.signal, onEvent: req.onEvent, meter: req.meter });
  }

  /**
   * The API reports no usage: the model's own tokenizer counts (`countTokens`), each message once;
   * where it fails, the core's estimate stands and the figures say they are estimated.
   */
  private async usageOf(model: vscode.LanguageModelChat, req: ChatRequest, text: string, calls: ModelToolCall[]): Promise<ModelUsage> {
    let estimated = false;
    const count = async (s: string): Promise<number | undefined> => {
      if (!s) return 0;
      try {
        return await model.countTokens(s);
      } catch {
        estimated = true;
        return undefined;
      }
    };
    const callText = (list: readonly ModelToolCall[]) => list.map((c) => c.name + c.argumentsJson).join('');
    const prompt = await Promise.all(
      req.messages.map(async (m) => {
        const known = this.counted.get(m);
        if (known !== undefined) return known;
        const counted = await count((m.content ?? '') + (m.role === 'assistant' ? callText(m.toolCalls ?? []) : ''));
        if (counted === undefined) return estimateMessageTokens(m);
        const n = counted + MESSAGE_OVERHEAD;
        this.counted.set(m, n);
        return n;
      }),
    );
    const output = text + callText(calls);
    const completionTokens = (await count(output)) ?? estimateTokens(output);
    const promptTokens = prompt.reduce((a, b) => a + b, 0) + estimatePromptTokens([], req.tools);
    return { promptTokens, completionTokens, estimated };
  }
}

/** By id, else by family (a setting written by hand often names the family: "gpt-4o"). */
async function findModel(lm: LanguageModels, wanted: string | undefined): Promise<vscode.LanguageModelChat> {
  if (!wanted) {
    const [first] = await lm.selectChatModels();
    if (!first) throw noModels();
    return first;
  }
  const [byId] = await lm.selectChatModels({ id: wanted });
  if (byId) return byId;
  const [byFamily] = await lm.selectChatModels({ family: wanted });
  if (byFamily) return byFamily;
  const offered = (await lm.selectChatModels()).map((m) => m.id);
  if (!offered.length) throw noModels();
  throw new ModelApiError({
    kind: 'bad-request',
    retryable: false,
    message: `VS Code offers no model "${wanted}" (it offers ${offered.join(', ')}): run "PatchPilot: Select Model" to choose one`,
  });
}

function noModels(): ModelApiError {
  return new ModelApiError({
    kind: 'auth',
    retryable: false,
    message:
      'VS Code offers no language models: install and sign in to an extension that provides them (GitHub Copilot, for one), or choose another provider with "PatchPilot: Select Model"',
  });
}

/** A listener that throws must not break the stream it listens to. */
function safeEmitter(onEvent: ChatRequest['onEvent']): (e: ModelStreamEvent) => void {
  return (e) => {
    try {
      onEvent?.(e);
    } catch {
      // UI rendering bugs stay in the UI.
    }
  };
}
