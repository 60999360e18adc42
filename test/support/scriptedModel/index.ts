export { ScriptedModelServer, type RecordedRequest, type ScriptMismatch } from './server';
export {
  loadScriptFile,
  validateScript,
  type Script,
  type ScriptedTurn,
  type ScriptedReply,
  type ScriptedFault,
  type ScriptedToolCall,
  type ScriptedExpectation,
  type ScriptedUsage,
  type ScriptedRoute,
} from './script';
