import { wireOf } from '../../../core/config';
import type { PatchPilotSettings } from '../../../core/config';
import type { ChatModel } from '../../../core/ports';
import { VsCodeChatModel } from './vsCodeChatModel';

/** The model the host serves itself for these settings (provider "vscode"); undefined: the core's client for the endpoint. */
export async function hostChatModel(settings: PatchPilotSettings): Promise<ChatModel | undefined> {
  if (wireOf(settings.llm.provider) !== 'vscode') return undefined;
  return VsCodeChatModel.select({ model: settings.llm.model, fastModel: settings.llm.fastModel, contextWindows: settings.llm.contextWindows });
}
